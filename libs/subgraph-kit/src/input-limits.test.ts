/**
 * Argument values a subgraph refuses before execution (input-limits.ts), through HTTP on a real
 * subgraph app backed by PostgreSQL: long lists and NUL characters, as literals and as variables,
 * at any depth, and the `_entities` representations limit.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ENTITY_REPRESENTATIONS, MAX_LIST_ITEMS } from './input-limits';
import { ITEMS, startTestSubgraph, type TestSubgraph } from './testing/test-subgraph';

let s: TestSubgraph;
before(async () => {
  s = await startTestSubgraph('subgraph_kit_limits');
});
after(() => s.close());

const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);

/** The answer is one BAD_USER_INPUT error, no data, and the message says `includes`. */
function refused(
  res: Awaited<ReturnType<TestSubgraph['query']>>,
  extensions: Record<string, unknown>,
  ...includes: string[]
) {
  assert.equal(res.errors?.length, 1, JSON.stringify(res.errors));
  const error = res.errors![0]!;
  assert.deepEqual(error.extensions, { code: 'BAD_USER_INPUT', ...extensions });
  for (const text of includes) assert.ok(error.message.includes(text), `${error.message} names ${text}`);
  assert.equal(res.data ?? null, null);
}

describe('lists longer than MAX_LIST_ITEMS', () => {
  test('a variable of 70,000 ids is BAD_USER_INPUT naming the variable and the limit, not a database error', async () => {
    const res = await s.query('query($ids: [ID!]) { items(ids: $ids) { id } }', { ids: ids(70_000) });
    refused(
      res,
      { variable: 'ids', limit: MAX_LIST_ITEMS, measured: 70_000 },
      '$ids',
      String(MAX_LIST_ITEMS),
    );
  });

  test('exactly MAX_LIST_ITEMS items are accepted', async () => {
    const res = await s.query('query($ids: [ID!]) { items(ids: $ids) { id } }', {
      ids: [...ids(MAX_LIST_ITEMS - 1), 'i2'],
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.deepEqual(res.data.items, [{ id: 'i2' }]);
  });

  test('a literal list is BAD_USER_INPUT naming the argument', async () => {
    const literal = JSON.stringify(ids(MAX_LIST_ITEMS + 1));
    const res = await s.query(`{ items(ids: ${literal}) { id } }`);
    refused(
      res,
      { argument: 'ids', limit: MAX_LIST_ITEMS, measured: MAX_LIST_ITEMS + 1 },
      'Argument ids of field items',
    );
  });

  test('a list inside an input object, as a variable and as a literal', async () => {
    const variable = await s.query('query($f: ItemFilter) { items(filter: $f) { id } }', {
      f: { names: ids(MAX_LIST_ITEMS + 5) },
    });
    refused(variable, { variable: 'f', limit: MAX_LIST_ITEMS, measured: MAX_LIST_ITEMS + 5 }, '$f.names');
    const literal = await s.query(
      `{ items(filter: { ids: ${JSON.stringify(ids(MAX_LIST_ITEMS + 2))} }) { id } }`,
    );
    refused(
      literal,
      { argument: 'filter', limit: MAX_LIST_ITEMS, measured: MAX_LIST_ITEMS + 2 },
      'filter.ids',
    );
  });
});

describe('strings with a NUL character', () => {
  test('a literal with \\u0000 is BAD_USER_INPUT naming the argument, not a database error', async () => {
    const res = await s.query('{ item(id: "a\\u0000b") { id } }');
    refused(res, { argument: 'id' }, 'Argument id of field item', 'NUL');
  });

  test('a variable with \\u0000, alone, in a list or in an input object', async () => {
    refused(
      await s.query('query($n: String!) { itemsNamed(name: $n) { id } }', { n: 'x\u0000' }),
      { variable: 'n' },
      '$n',
    );
    refused(
      await s.query('query($ids: [ID!]) { items(ids: $ids) { id } }', { ids: ['i1', 'i\u00002'] }),
      { variable: 'ids' },
      '$ids[1]',
    );
    refused(
      await s.query('query($f: ItemFilter) { items(filter: $f) { id } }', { f: { names: ['\u0000'] } }),
      { variable: 'f' },
      '$f.names[0]',
    );
  });

  test('an _entities representation with \\u0000 is BAD_USER_INPUT', async () => {
    const res = await s.query(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Item { id } } }',
      { r: [{ __typename: 'Item', id: 'i\u00001' }] },
    );
    refused(res, { variable: 'r' }, '$r[0].id');
  });

  test('strings without NUL and lists within the limit are served', async () => {
    const res = await s.query('query($n: String!) { itemsNamed(name: $n) { id } item(id: "i3") { name } }', {
      n: ITEMS[0]!.name,
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.deepEqual(res.data, { itemsNamed: [{ id: 'i1' }], item: { name: 'Item 3' } });
  });
});

describe('_entities representations', () => {
  const entities = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Item { id name } } }';
  const representations = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ __typename: 'Item', id: `i${(i % 3) + 1}` }));

  test('a gateway batch larger than MAX_LIST_ITEMS is served', async () => {
    const res = await s.query(entities, { r: representations(MAX_LIST_ITEMS * 3) });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data._entities.length, MAX_LIST_ITEMS * 3);
    assert.deepEqual(res.data._entities[4], { id: 'i2', name: 'Item 2' });
  });

  test('more than MAX_ENTITY_REPRESENTATIONS is BAD_USER_INPUT', async () => {
    const res = await s.query(entities, { r: representations(MAX_ENTITY_REPRESENTATIONS + 1) });
    refused(
      res,
      { variable: 'r', limit: MAX_ENTITY_REPRESENTATIONS, measured: MAX_ENTITY_REPRESENTATIONS + 1 },
      '$r',
      String(MAX_ENTITY_REPRESENTATIONS),
    );
  });
});

describe('request body', () => {
  test('a body over the size limit is HTTP 413 PAYLOAD_TOO_LARGE, not an internal error', async () => {
    const res = await s.query('query($ids: [ID!]) { items(ids: $ids) { id } }', {
      ids: Array.from({ length: 70_000 }, (_, i) => String(350_000_000_000_000 + i)),
    });
    assert.equal(res.status, 413);
    assert.equal(res.errors?.length, 1, JSON.stringify(res.errors));
    assert.equal(res.errors![0]!.extensions?.code, 'PAYLOAD_TOO_LARGE');
  });
});
