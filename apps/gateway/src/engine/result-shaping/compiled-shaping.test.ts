import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildSchema,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  operationFromDocument,
  type CompositeType,
  type Operation,
  type SelectionSet,
  type Type,
} from '@apollo/federation-internals';
import { parse } from 'graphql';
import { seededRandom } from '@fleetgraph/testing';
import { leafValue } from '../../testing/generated-data';
import { computeResponse } from './compiled-shaping';
import { apolloComputeResponse, compiledShapingInstalled, installCompiledResultShaping } from './install';

const schema = buildSchema(`
  scalar DateTime
  enum Status { OPEN CLOSED }
  interface Node { id: ID! }
  union SearchResult = Item | User
  type Query {
    items: [Item!]!
    maybeItems: [Item]
    node(id: ID!): Node
    search: [SearchResult!]
    me: User!
    count: Int
    ratio: Float
    flag: Boolean
    matrix: [[Int!]]!
  }
  type Item implements Node {
    id: ID!
    name: String!
    status: Status
    when: DateTime
    owner: User
    tags: [String!]
    score: Float!
  }
  type User implements Node {
    id: ID!
    fullName: String
    active: Boolean!
    items: [Item!]!
  }
`);

const OPERATIONS: Record<string, string> = {
  aliasesAndMerging: `query Q($withOwner: Boolean = true) {
    items { id first: name status ... on Item { name owner @include(if: $withOwner) { fullName } } }
    items { owner { id active } tags }
    me { fullName alias: id __typename kind: __typename }
  }`,
  abstract: `query Q {
    node(id: "1") { __typename id ... on Item { name score } ... on User { fullName items { id } } }
    search { ... on Node { id } ... on Item { status when } ...U }
  }
  fragment U on User { t: __typename fullName active }`,
  skipWithVariables: `query Q($skip: Boolean!, $keep: Boolean = false) {
    count @skip(if: $skip) ratio @include(if: $keep) flag @skip(if: false)
    maybeItems @include(if: true) { id name @skip(if: $skip) }
    matrix
  }`,
  introspection: `query Q { __schema { queryType { name } } me { id } __typename }`,
};

const VARIABLES: Record<string, Record<string, unknown>> = {
  skipWithVariables: { skip: true },
};

/** The answer and errors as a client would read them: JSON text (key order included). */
function run(
  shape: typeof computeResponse,
  operation: Operation,
  input: unknown,
  variables?: Record<string, unknown>,
) {
  try {
    const { data, errors } = shape({
      operation,
      input: input as Record<string, unknown>,
      introspectionHandling: (selection) => ({ introspected: selection.element.responseName() }),
      ...(variables ? { variables } : {}),
    });
    return JSON.stringify({
      data,
      errors: errors.map((error) => ({
        message: error.message,
        path: error.path,
        code: error.extensions.code,
      })),
    });
  } catch (error) {
    return `threw: ${(error as Error).message}`;
  }
}

function operationOf(name: string): Operation {
  return operationFromDocument(schema, parse(OPERATIONS[name]!), { validate: true });
}

const WRONG_LEAVES: unknown[] = ['x', 'CLOSED', 'OPENED', 1, 1.5, -0, Number.NaN, true, '12', { a: 1 }, [1]];

/**
 * Subgraph-like data for an operation: every selected field, with now and then a null, a value of
 * the wrong type, a missing field, an unknown __typename or a list item of the wrong kind.
 */
function generate(
  selectionSet: SelectionSet,
  type: CompositeType,
  next: () => number,
  corrupt: number,
): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  let concrete: CompositeType = type;
  if (!isObjectType(type)) {
    const candidates = schema
      .types()
      .filter((t) => isObjectType(t) && (t.name === 'Item' || t.name === 'User'));
    concrete = candidates[Math.floor(next() * candidates.length)] as CompositeType;
  }
  if (!isObjectType(type) || next() < 0.3)
    output.__typename = next() < corrupt / 3 ? 'Unknown' : concrete.name;
  const fill = (set: SelectionSet) => {
    for (const selection of set.selections()) {
      if (selection.kind === 'FragmentSelection') {
        fill(selection.selectionSet);
        continue;
      }
      const field = selection.element;
      if (field.name === '__typename' || field.definition.isSchemaIntrospectionField()) continue;
      if (next() < corrupt / 4) continue; // missing
      output[field.responseName()] = value(field.definition.type!, selection.selectionSet, next, corrupt);
    }
  };
  fill(selectionSet);
  return output;
}

function value(
  type: Type,
  selectionSet: SelectionSet | undefined,
  next: () => number,
  corrupt: number,
): unknown {
  if (next() < corrupt / 4) return null;
  if (isNonNullType(type)) return value(type.ofType, selectionSet, next, corrupt);
  if (isListType(type)) {
    if (next() < corrupt / 8) return 'not a list';
    return Array.from({ length: Math.floor(next() * 4) }, () =>
      value(type.ofType, selectionSet, next, corrupt),
    );
  }
  if (isCompositeType(type)) return generate(selectionSet!, type, next, corrupt);
  if (next() < corrupt) return WRONG_LEAVES[Math.floor(next() * WRONG_LEAVES.length)];
  return leafValue(type.name, next);
}

/**
 * For each operation, `count` generated answers (seeded, `corrupt` as in `generate`) shaped by the
 * port and by Apollo's own: asserts they are the same text and returns the port's answers.
 */
function compareWithApollo(seed: number, count: number, corrupt: number): { name: string; ours: string }[] {
  const apollo = apolloComputeResponse();
  const answers: { name: string; ours: string }[] = [];
  for (const name of Object.keys(OPERATIONS)) {
    const operation = operationOf(name);
    const next = seededRandom(seed);
    for (let i = 0; i < count; i++) {
      const input = generate(
        operation.selectionSet,
        schema.schemaDefinition.rootType('query')!,
        next,
        corrupt,
      );
      const ours = run(computeResponse, operation, input, VARIABLES[name]);
      assert.equal(
        ours,
        run(apollo, operation, input, VARIABLES[name]),
        `${name} #${i}: ${JSON.stringify(input)}`,
      );
      answers.push({ name: `${name} #${i}`, ours });
    }
  }
  return answers;
}

test('the compiled shaping gives the same answer and errors as Apollo on correct data', () => {
  for (const { name, ours } of compareWithApollo(7, 50, 0)) {
    assert.match(ours, /"data":\{/, `${name} answers data`);
    assert.match(ours, /"errors":\[\]/, `${name} has no errors`);
  }
});

test('the compiled shaping nulls, bubbles up, reports and throws exactly like Apollo on bad subgraph data', () => {
  const seen = { errors: 0, nullData: 0, threw: 0 };
  for (const { ours } of compareWithApollo(42, 400, 0.15)) {
    if (ours.startsWith('threw')) seen.threw++;
    else if (ours.startsWith('{"data":null')) seen.nullData++;
    if (ours.includes('INVALID_GRAPHQL')) seen.errors++;
  }
  // The corruption reached every kind of outcome, so the comparison covered them.
  assert.ok(seen.errors > 100 && seen.nullData > 10 && seen.threw > 10, JSON.stringify(seen));
});

test('the answer keeps the operation order, merges a repeated field and names types for __typename', () => {
  const operation = operationOf('aliasesAndMerging');
  const input = {
    items: [
      {
        id: '1',
        first: 'A',
        status: 'OPEN',
        name: 'A',
        owner: { fullName: 'Dana', id: '9', active: true },
        tags: ['x'],
      },
    ],
    me: { fullName: 'Dana', alias: '9' },
    extra: 'not selected',
  };
  const { data, errors } = computeResponse({ operation, input, introspectionHandling: () => null });
  assert.deepEqual(errors, []);
  assert.equal(
    JSON.stringify(data),
    '{"items":[{"id":"1","first":"A","status":"OPEN","name":"A","owner":{"fullName":"Dana","id":"9","active":true},"tags":["x"]}],' +
      '"me":{"fullName":"Dana","alias":"9","__typename":"User","kind":"User"}}',
  );
});

test('a null for a non-null field bubbles up to the nearest nullable field, with one error at its path', () => {
  const operation = operationOf('abstract');
  const input = { node: { __typename: 'Item', id: '1', name: null, score: 1.5 }, search: [] };
  const { data, errors } = computeResponse({ operation, input, introspectionHandling: () => null });
  assert.equal(JSON.stringify(data), '{"node":null,"search":[]}');
  assert.deepEqual(
    errors.map((error) => [error.message, error.path, error.extensions.code]),
    [['Cannot return null for non-nullable field Item.name.', ['node', 'name'], 'INVALID_GRAPHQL']],
  );
});

test('the gateway installs the compiled shaping in the place of Apollo’s, once', () => {
  assert.deepEqual(installCompiledResultShaping(), { installed: true });
  assert.deepEqual(installCompiledResultShaping(), { installed: true });
  assert.ok(compiledShapingInstalled());
  assert.notEqual(apolloComputeResponse(), computeResponse);
});
