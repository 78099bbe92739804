import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, graphql, parse } from 'graphql';
import { fieldCostsOf } from '@fleetgraph/query-limits';
import { applyPageRules, enforcePageRules } from './paged-fields';

const rules = { defaultSize: 20, maxSize: 100 };

test('a first page without pageSize gets the declared default; a follow-up keeps its cursor size', () => {
  assert.deepEqual(applyPageRules({}, rules), { pageSize: 20 });
  assert.deepEqual(applyPageRules({ pageId: '' }, rules), { pageId: '', pageSize: 20 });
  assert.deepEqual(applyPageRules({ pageId: 'abc' }, rules), { pageId: 'abc' });
  assert.deepEqual(applyPageRules({ pageSize: 100 }, rules), { pageSize: 100 });
});

test('a pageSize outside 1..max is BAD_USER_INPUT naming the maximum', () => {
  for (const pageSize of [0, -1, 101]) {
    assert.throws(
      () => applyPageRules({ pageSize }, rules),
      (error: Error & { extensions?: Record<string, unknown> }) =>
        error.extensions?.code === 'BAD_USER_INPUT' &&
        error.extensions.maxPageSize === 100 &&
        /between 1 and 100/.test(error.message),
    );
  }
});

const SDL = `
  directive @paged(default: Int!, max: Int!) on FIELD_DEFINITION
  type Query { items(pageSize: Int, pageId: ID): [Int] @paged(default: 3, max: 5) }
`;

test('the schema serves the declared rules whatever its resolver assumes', async () => {
  const schema = enforcePageRules(buildSchema(SDL), fieldCostsOf(parse(SDL)));
  const rootValue = {
    items: (args: { pageSize: number }) => Array.from({ length: args.pageSize }, (_, i) => i),
  };
  assert.deepEqual((await graphql({ schema, source: '{ items }', rootValue })).data?.items, [0, 1, 2]);
  const over = await graphql({ schema, source: '{ items(pageSize: 6) }', rootValue });
  assert.equal(over.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
});

test('a schema with a paged field that declares no rules is refused at start, naming the field', () => {
  const sdl = 'type Query { items(pageSize: Int): [Int] other(pageSize: Int): [Int] }';
  assert.throws(
    () => enforcePageRules(buildSchema(sdl), fieldCostsOf(parse(sdl))),
    /paged fields without @paged\(default:, max:\): Query.items, Query.other/,
  );
});
