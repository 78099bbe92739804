import { CursorCodec } from '@fleetgraph/paging';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, getIntrospectionQuery, getOperationAST, parse, type DocumentNode } from 'graphql';
import { countTokens, measureOperation } from './measure';

const schema = buildSchema(`
  type Query {
    me: Account
    devices(ids: [ID], pageSize: Int, pageId: ID): DevicePaged!
    groups(pageSize: Int, pageId: ID): GroupPaged!
    node(id: ID!): Node
  }
  interface Node { id: ID! }
  type Account implements Node { id: ID! email: String! groups(pageSize: Int, pageId: ID): GroupPaged! }
  type Device implements Node { id: ID! name: String tags: [String!]! groups(pageSize: Int, pageId: ID): GroupPaged! }
  type Group implements Node { id: ID! label: String! children(pageSize: Int, pageId: ID): GroupPaged! devices(pageSize: Int, pageId: ID): DevicePaged! }
  type DevicePaged { items: [Device!]! next: ID count: Int }
  type GroupPaged { items: [Group!]! next: ID count: Int }
`);

function measure(query: string, variables?: Record<string, unknown>, defaultPageSize = 50) {
  const document: DocumentNode = parse(query);
  const operation = getOperationAST(document);
  assert.ok(operation);
  return measureOperation({ schema, document, operation, variables, defaultPageSize });
}

test('depth counts nested fields; a root field is depth 1', () => {
  assert.equal(measure('{ me { id } }').depth, 2);
  assert.equal(measure('{ me { groups { items { children { items { id } } } } } }').depth, 6);
  assert.equal(measure('{ __typename }').depth, 1);
});

test('depth follows fragments and inline fragments without counting them as levels', () => {
  const query = `
    query { me { ...G } }
    fragment G on Account { groups { items { ...C } } }
    fragment C on Group { children { items { ... on Group { id } } } }
  `;
  assert.equal(measure(query).depth, 6);
});

test('aliases are counted, fragments once per spread', () => {
  assert.equal(measure('{ a: me { id } b: me { x: id } }').aliases, 3);
  const query = `
    { me { ...F ...F } m2: me { ...F } }
    fragment F on Account { e1: email e2: email }
  `;
  assert.equal(measure(query).aliases, 7);
});

test('a fragment cycle does not loop (validation rejects it; measuring must still end)', () => {
  const query = `
    { me { ...A } }
    fragment A on Account { id ...B }
    fragment B on Account { email ...A }
  `;
  const result = measure(query);
  assert.equal(result.depth, 2);
  assert.equal(result.cost, 3);
});

// 2^40 spreads: measured by walking them it would never finish, so the test's own timeout fails it.
test('deeply repeated fragment spreads are measured in linear time', { timeout: 10_000 }, () => {
  const levels = 40;
  let fragments = 'fragment F0 on Account { id }\n';
  for (let i = 1; i <= levels; i++) fragments += `fragment F${i} on Account { ...F${i - 1} ...F${i - 1} }\n`;
  const result = measure(`{ me { ...F${levels} } }\n${fragments}`);
  assert.equal(result.cost, 1 + 2 ** levels);
});

test('cost: each field 1, scalar leaves included', () => {
  assert.equal(measure('{ me { id email } }').cost, 3);
  assert.equal(measure('{ __typename me { __typename id } }').cost, 2);
});

test('cost multiplies the selection of a paged field by its literal pageSize', () => {
  // devices(1) + 10 * (items(1) + id + name)
  assert.equal(measure('{ devices(pageSize: 10) { items { id name } } }').cost, 1 + 10 * 3);
  // nested pages multiply: 1 + 10 * (items + id + groups(1 + 20 * (items + id)))
  assert.equal(
    measure('{ devices(pageSize: 10) { items { id groups(pageSize: 20) { items { id } } } } }').cost,
    1 + 10 * (1 + 1 + (1 + 20 * 2)),
  );
});

test('cost uses the default page size when pageSize is absent or null', () => {
  assert.equal(measure('{ devices { items { id } } }').cost, 1 + 50 * 2);
  assert.equal(measure('{ devices(pageSize: null) { items { id } } }', {}, 7).cost, 1 + 7 * 2);
});

test('cost reads pageSize from variables, then from the variable default, then the configured default', () => {
  const query = 'query Q($n: Int = 5) { devices(pageSize: $n) { items { id } } }';
  assert.equal(measure(query, { n: 100 }).cost, 1 + 100 * 2);
  assert.equal(measure(query, {}).cost, 1 + 5 * 2);
  assert.equal(measure('query Q($n: Int) { devices(pageSize: $n) { items { id } } }', {}).cost, 1 + 50 * 2);
});

test('cost through fragments keeps the multiplier of the page they are spread in', () => {
  const query = `
    query Q($n: Int) { groups(pageSize: $n) { ...Page } }
    fragment Page on GroupPaged { items { id devices(pageSize: 3) { items { ...D } } } }
    fragment D on Device { id name }
  `;
  // groups: 1 + 4 * (items 1 + id 1 + devices (1 + 3 * (items 1 + id + name)))
  assert.equal(measure(query, { n: 4 }).cost, 1 + 4 * (2 + (1 + 3 * 3)));
});

test('list fields without pageSize are not multiplied', () => {
  assert.equal(measure('{ devices(pageSize: 1) { items { tags } } }').cost, 1 + 1 * 2);
});

test('introspection costs nothing; its depth counts except along ofType chains, and its aliases count', () => {
  const standard = measure(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
  assert.equal(standard.cost, 0);
  assert.equal(standard.aliases, 0);
  assert.ok(standard.depth <= 6, `the standard IntrospectionQuery measures depth ${standard.depth}`);
  const mixed = measure(
    '{ __type(name: "Device") { fields { type { ofType { ofType { name } } } } } me { id } }',
  );
  assert.equal(mixed.depth, 4);
  assert.equal(mixed.cost, 2);
  // Amplification through fields { type { fields ... } } is as deep as it looks.
  const nested = measure(
    '{ __type(name: "Device") { fields { type { fields { type { fields { name } } } } } } }',
  );
  assert.equal(nested.depth, 7);
  const aliased = measure(
    '{ __schema { a: types { name } b: types { name } } c: __type(name: "Device") { name } }',
  );
  assert.equal(aliased.aliases, 3);
});

test('a follow-up page without pageSize costs the page size its cursor carries', () => {
  const codec = new CursorCodec('a-secret-of-sixteen-chars');
  const pageId = codec.encode({ k: ['x'], s: 7, f: 'fp' });
  const query = `{ devices(pageId: ${JSON.stringify(pageId)}) { items { id } } }`;
  assert.equal(measure(query).cost, 1 + 7 * 2);
  const viaVariable = 'query Q($p: ID) { devices(pageId: $p) { items { id } } }';
  assert.equal(measure(viaVariable, { p: pageId }).cost, 1 + 7 * 2);
  // Not a cursor: the default page size (50).
  assert.equal(measure('{ devices(pageId: "nonsense") { items { id } } }').cost, 1 + 50 * 2);
});

test('the standard introspection query stays within the default token limit', () => {
  assert.ok(countTokens(getIntrospectionQuery()) < 5000);
  assert.ok(
    countTokens(
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true }),
    ) < 5000,
  );
});

test('countTokens counts as the parser maxTokens option does, ignoring comments', () => {
  assert.equal(countTokens('{ me { id } }'), 6);
  assert.equal(countTokens('# a comment\n{ me { id } }'), 6);
  assert.equal(countTokens('query Q($n: Int = 5) { a: devices(pageSize: $n) { items { id } } }'), 27);
  // parse with maxTokens equal to the count succeeds, one less fails
  const source = 'query Q($n: Int = 5) { a: devices(pageSize: $n) { items { id } } }';
  assert.doesNotThrow(() => parse(source, { maxTokens: countTokens(source) }));
  assert.throws(() => parse(source, { maxTokens: countTokens(source) - 1 }), /more tha[nt] \d+ tokens/);
  assert.equal(countTokens('{ me { id '), 4);
});
