import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  buildSchema as buildFederationSchema,
  operationFromDocument,
  Supergraph,
} from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import {
  buildSchema,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  print,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { repoRoot } from '@fleetgraph/service-kit';
import { seededRandom } from '@fleetgraph/testing';
import { leafValue } from '../../testing/generated-data';
import { StoredJson } from '../../cache/stored-json';
import { computeResponse } from './compiled-shaping';
import { apolloComputeResponse } from './install';
import { expectPassThrough, holdForPassThrough, passThroughCheck } from './pass-through';

const SDL = `
  enum Status { OPEN CLOSED }
  scalar DateTime
  type Query { items(pageSize: Int): [Item!]! me: User count: Int }
  type Item { id: ID! name: String! status: Status when: DateTime owner: User tags: [String!] score: Float! }
  type User { id: ID! fullName: String active: Boolean! age: Int }
`;
const schema = buildSchema(SDL);
const federationSchema = buildFederationSchema(SDL);

const operationOf = (query: string) => parse(query).definitions[0] as OperationDefinitionNode;

/** A plan of one fetch sending `sent` (what the planner made of the client's operation). */
const fetchPlan = (sent: string) => ({
  node: { kind: 'Fetch', operation: sent, operationKind: 'query' },
});

const ITEMS =
  '{ items(pageSize: 2) { id name status when owner { fullName active } tags score } me { id age } }';

function checkOf(query: string, sent = query) {
  return passThroughCheck(fetchPlan(sent), operationOf(query), schema);
}

test('a single fetch that sends exactly the client selection is checked, anything else is shaped', () => {
  assert.ok(checkOf(ITEMS));
  assert.ok(
    checkOf('query Q($n: Int) { items(pageSize: $n) { id } }'),
    'variables are the subgraph’s to apply',
  );
  assert.equal(
    checkOf(ITEMS, '{ items(pageSize: 2) { __typename id } }'),
    undefined,
    'the planner added a field',
  );
  assert.equal(checkOf('{ me { id age } }', '{ me { age id } }'), undefined, 'the planner reordered');
  assert.equal(checkOf('{ me { ...F } } fragment F on User { id }'), undefined, 'fragments');
  assert.equal(checkOf('{ me { ... on User { id } } }'), undefined, 'inline fragments');
  assert.equal(checkOf('query Q($s: Boolean!) { me { id @skip(if: $s) } }'), undefined, 'directives');
  const operation = operationOf(ITEMS);
  const plan = (node: object) =>
    passThroughCheck({ node: { ...fetchPlan(ITEMS).node, ...node } }, operation, schema);
  assert.equal(plan({ requires: [{}] }), undefined, 'an entity fetch');
  assert.equal(plan({ outputRewrites: [{}] }), undefined, 'rewrites');
  assert.equal(plan({ operationKind: 'mutation' }), undefined, 'a mutation');
  assert.equal(passThroughCheck({ node: { kind: 'Sequence' } }, operation, schema), undefined);
});

test('the committed supergraph: one subgraph’s plain query passes through, a query across subgraphs does not', () => {
  const supergraph = Supergraph.build(readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8'));
  const planner = new QueryPlanner(supergraph);
  const api = supergraph.apiSchema().toGraphQLJSSchema();
  const verdict = (query: string) => {
    const plan = planner.buildQueryPlan(operationFromDocument(supergraph.apiSchema(), parse(query)));
    return passThroughCheck(plan, operationOf(query), api) !== undefined;
  };
  assert.equal(
    verdict('{ devices(pageSize: 50) { list { id status owner { fullName } currentVehicle { plate } } } }'),
    true,
  );
  assert.equal(verdict('{ account { fullName } }'), true);
  assert.equal(
    verdict(
      '{ devices(pageSize: 2) { list { id currentVehicle { inspectionReports(pageSize: 1) { list { id } } } } } }',
    ),
    false,
    'dvir extends Vehicle: two fetches',
  );
  assert.equal(
    verdict('{ account { fullName } geodecode(lat: 48.85, lng: 2.35) { extent { __typename } } }'),
    false,
  );
});

const ANSWER = {
  items: [
    {
      id: '1',
      name: 'a',
      status: 'OPEN',
      when: '2026-11-27',
      owner: { fullName: 'Dana', active: true },
      tags: ['x'],
      score: 1.5,
    },
    { id: '2', name: 'b', status: null, when: null, owner: null, tags: null, score: 0 },
  ],
  me: { id: 'u', age: 41 },
};

test('an answer passes only with exactly the selected keys, in order, and valid values', () => {
  const check = checkOf(ITEMS)!;
  assert.equal(check(structuredClone(ANSWER)), true);
  const broken: Array<[string, (answer: Record<string, any>) => void]> = [
    ['a missing key', (a) => delete a.me.age],
    ['a key not asked for', (a) => (a.me.secret = 1)],
    ['another order', (a) => (a.me = { age: 41, id: 'u' })],
    ['null where non-null', (a) => (a.items[0].name = null)],
    ['no such enum value', (a) => (a.items[0].status = 'OPENED')],
    ['a number for a String', (a) => (a.items[0].name = 7)],
    ['an Int out of range', (a) => (a.me.age = 2 ** 31)],
    ['a string for a Float', (a) => (a.items[1].score = 'NaN')],
    ['an object for a list', (a) => (a.items = {})],
  ];
  for (const [why, change] of broken) {
    const answer = structuredClone(ANSWER) as Record<string, any>;
    change(answer);
    assert.equal(check(answer), false, why);
  }
  const typename = checkOf('{ me { __typename id } }')!;
  assert.equal(typename({ me: { __typename: 'User', id: 'u' } }), true);
  assert.equal(typename({ me: { __typename: 'Item', id: 'u' } }), false, 'another type’s name');
});

/** Apollo's executor: a root fetch's data merged into its own result object, then shaped. */
function shapeLikeApollo(query: string, data: Record<string, unknown>) {
  const input = Object.create(null) as Record<string, unknown>;
  Object.assign(input, data);
  const operation = operationFromDocument(federationSchema, parse(query), { validate: true });
  return computeResponse({ operation, input, introspectionHandling: () => null });
}

test('a held answer is answered as the subgraph’s text; anything else is shaped as before', () => {
  const context = {};
  expectPassThrough(context, checkOf(ITEMS)!);
  const text = JSON.stringify({ data: ANSWER });
  const answer = JSON.parse(text) as { data: Record<string, unknown> };
  assert.equal(holdForPassThrough(context, answer, text), true);
  const passed = shapeLikeApollo(ITEMS, answer.data);
  assert.ok(passed.data instanceof StoredJson);
  assert.equal((passed.data as StoredJson).text, JSON.stringify(ANSWER));
  assert.deepEqual(passed.errors, []);

  const notHeld = (ctx: object, body: object, bodyText: string | undefined) => {
    const parsed = structuredClone(body);
    return holdForPassThrough(ctx, parsed, bodyText);
  };
  assert.equal(notHeld({}, { data: ANSWER }, text), false, 'a request whose plan was not checked');
  const withErrors = { data: ANSWER, errors: [{ message: 'partial' }] };
  assert.equal(notHeld(context, withErrors, JSON.stringify(withErrors)), false, 'errors');
  const withExtensions = { data: ANSWER, extensions: { cost: 1 } };
  assert.equal(notHeld(context, withExtensions, JSON.stringify(withExtensions)), false, 'extensions');
  assert.equal(
    notHeld(context, { data: ANSWER }, JSON.stringify({ data: ANSWER }, null, 1)),
    false,
    'not compact',
  );
  assert.equal(notHeld(context, { data: ANSWER }, undefined), false, 'no text');

  // Held, but the request's result also has a field of another fetch: shaped.
  const again = JSON.parse(text) as { data: Record<string, unknown> };
  assert.equal(holdForPassThrough(context, again, text), true);
  const shaped = shapeLikeApollo(`{ count ${ITEMS.slice(1)}`, { count: 3, ...again.data });
  assert.ok(!(shaped.data instanceof StoredJson));
  assert.equal(JSON.stringify(shaped.data), JSON.stringify({ count: 3, ...ANSWER }));
});

const WRONG = ['x', 'OPENED', 1, 1.5, 2 ** 40, Number.NaN, true, { a: 1 }, [1], null];

/** Subgraph-like data for a selection, now and then missing, extra, reordered or wrong. */
function generate(
  selectionSet: SelectionSetNode,
  type: GraphQLOutputType,
  next: () => number,
  corrupt: number,
): Record<string, unknown> {
  const named = getNamedType(type);
  assert.ok(isObjectType(named));
  const fields = named.getFields();
  const entries: [string, unknown][] = [];
  for (const selection of selectionSet.selections) {
    assert.equal(selection.kind, Kind.FIELD);
    if (next() < corrupt / 6) continue;
    const key = selection.alias?.value ?? selection.name.value;
    if (selection.name.value === '__typename') {
      entries.push([key, next() < corrupt / 3 ? 'Other' : named.name]);
      continue;
    }
    entries.push([key, value(fields[selection.name.value]!.type, selection.selectionSet, next, corrupt)]);
  }
  if (next() < corrupt / 6) entries.push(['extra', 1]);
  if (entries.length > 1 && next() < corrupt / 6) entries.reverse();
  return Object.fromEntries(entries);
}

function value(
  type: GraphQLOutputType,
  set: SelectionSetNode | undefined,
  next: () => number,
  corrupt: number,
): unknown {
  if (next() < corrupt / 5) return WRONG[Math.floor(next() * WRONG.length)];
  if (isNonNullType(type)) return value(type.ofType, set, next, corrupt);
  if (next() < 0.1) return null;
  if (isListType(type))
    return Array.from({ length: Math.floor(next() * 3) }, () => value(type.ofType, set, next, corrupt));
  const named = getNamedType(type);
  if (isObjectType(named)) return generate(set!, named, next, corrupt);
  return leafValue(named.name, next);
}

test('whenever an answer passes, Apollo’s own shaping gives the same JSON and no error (5,000 seeded answers)', () => {
  const apollo = apolloComputeResponse();
  const queries = [ITEMS, '{ me { t: __typename fullName n: id active } count items { owner { id } tags } }'];
  let passed = 0;
  let refused = 0;
  for (const query of queries) {
    const check = checkOf(query)!;
    const operation = operationOf(query);
    const next = seededRandom(query.length);
    for (let i = 0; i < 2500; i++) {
      const data = generate(
        operation.selectionSet,
        (schema as GraphQLSchema).getQueryType()!,
        next,
        i % 2 ? 0.4 : 0.05,
      );
      if (!check(data)) {
        refused++;
        continue;
      }
      passed++;
      const input = Object.assign(Object.create(null), structuredClone(data)) as Record<string, unknown>;
      const shaped = apollo({
        operation: operationFromDocument(federationSchema, parse(print(operation)), { validate: true }),
        input,
        introspectionHandling: () => null,
      });
      assert.deepEqual(shaped.errors, [], JSON.stringify(data));
      assert.equal(JSON.stringify(shaped.data), JSON.stringify(data));
    }
  }
  assert.ok(passed > 300 && refused > 300, `both outcomes exercised: ${passed} passed, ${refused} refused`);
});
