/**
 * Every subgraph measures nesting before it parses (graphql-js recurses once per level): a query
 * text or a variable nested deeper than MAX_NESTING is QUERY_TOO_COMPLEX, HTTP 400, never
 * "Maximum call stack size exceeded". Through HTTP on a real subgraph app.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_QUERY_LIMITS } from '@fleetgraph/query-limits';
import { startTestSubgraph, type TestSubgraph } from './testing/test-subgraph';

let s: TestSubgraph;
before(async () => {
  s = await startTestSubgraph('subgraph_kit_nesting');
});
after(() => s.close());

const LIMIT = DEFAULT_QUERY_LIMITS.maxNesting;

test('a list literal 2,400 deep is QUERY_TOO_COMPLEX (nesting), not a broken parser', async () => {
  const query = `{ items(ids: ${'['.repeat(2400)}${']'.repeat(2400)}) { id } }`;
  const res = await s.postRaw(JSON.stringify({ query }));
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.deepEqual(res.body.errors?.[0]?.extensions, {
    code: 'QUERY_TOO_COMPLEX',
    rule: 'nesting',
    limit: LIMIT,
    measured: 2402,
  });
});

test('deep object literals and selection sets are refused the same way', async () => {
  for (const [query, measured] of [
    [`{ items(filter: ${'{ids:'.repeat(1200)}"a"${'}'.repeat(1200)}) { id } }`, 1202],
    [`{ ${'items { '.repeat(1500)}id${' }'.repeat(1500)} }`, 1501],
  ] as const) {
    const res = await s.postRaw(JSON.stringify({ query }));
    assert.equal(res.status, 400);
    assert.equal(res.body.errors?.[0]?.extensions?.rule, 'nesting');
    assert.equal(res.body.errors?.[0]?.extensions?.measured, measured);
  }
});

test('a variable nested 20,000 deep is QUERY_TOO_COMPLEX naming it', async () => {
  // `_Any` takes any JSON, so the value reaches the subgraph's own code as it was sent.
  const deep = `${'['.repeat(20_000)}"a"${']'.repeat(20_000)}`;
  const res = await s.postRaw(
    `{"query":"query($r: [_Any!]!) { _entities(representations: $r) { __typename } }","variables":{"r":[{"__typename":"Item","id":"i1","extra":${deep}}]}}`,
  );
  assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 500));
  assert.deepEqual(res.body.errors?.[0]?.extensions, {
    code: 'QUERY_TOO_COMPLEX',
    rule: 'nesting',
    limit: LIMIT,
    measured: 20_002,
    variable: 'r',
  });
  // A variable of a typed list is refused by its type before that (a coded client error too).
  const typed = await s.postRaw(
    `{"query":"query($ids: [ID!]) { items(ids: $ids) { id } }","variables":{"ids":${deep}}}`,
  );
  assert.equal(typed.status, 400);
  assert.equal(typed.body.errors?.[0]?.extensions?.code, 'GRAPHQL_VALIDATION_FAILED');
});

test('nesting within the bound is served', async () => {
  const res = await s.query('{ items(filter: { ids: ["i1"] }) { id name } }');
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.deepEqual(
    res.data.items.map((i: { id: string }) => i.id),
    ['i1'],
  );
});
