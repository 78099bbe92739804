import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { canonicalJson, readCacheCommand } from './settings';

const schema = buildSchema(`
  enum CacheScope { LOGIN ACCOUNT NONE }
  type CacheInfo { ttl: Int! }
  type Query {
    cache(scope: CacheScope = LOGIN, ttl: Int = 5, extendTtl: Boolean = false, saveSettings: Boolean = true,
          softFlush: Boolean, flush: Boolean): CacheInfo
    other: Int
  }
`);

function read(source: string, variables?: Record<string, unknown>) {
  const document = parse(source);
  const operation = document.definitions.find(
    (d) => d.kind === 'OperationDefinition',
  ) as OperationDefinitionNode;
  return readCacheCommand(schema, document, operation, variables);
}

test('an operation without a cache field has no cache command', () => {
  assert.equal(read('{ other }'), undefined);
});

test('the spec defaults apply to a bare cache field', () => {
  assert.deepEqual(read('{ cache { ttl } }'), {
    scope: 'LOGIN',
    ttl: 5,
    extendTtl: false,
    saveSettings: true,
    softFlush: false,
    flush: false,
  });
});

test('arguments come from variables and through fragments', () => {
  const command = read(
    'query Q($ttl: Int, $scope: CacheScope) { ...F } fragment F on Query { ... on Query { cache(ttl: $ttl, scope: $scope, flush: true) { ttl } } }',
    { ttl: 60, scope: 'ACCOUNT' },
  );
  assert.equal(command?.ttl, 60);
  assert.equal(command?.scope, 'ACCOUNT');
  assert.equal(command?.flush, true);
});

test('a ttl outside 1..3600 and two cache fields are BAD_USER_INPUT', () => {
  for (const source of [
    '{ cache(ttl: 0) { ttl } }',
    '{ cache(ttl: 3601) { ttl } }',
    '{ a: cache { ttl } b: cache { ttl } }',
  ]) {
    assert.throws(
      () => read(source),
      (error: any) => error.extensions.code === 'BAD_USER_INPUT',
      source,
    );
  }
  assert.throws(
    () => read('query Q($t: Int) { cache(ttl: $t) { ttl } }', { t: null }),
    /ttl must be between/,
  );
});

test('canonical JSON sorts keys at every level and drops undefined members', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: undefined } }),
    '{"a":{"d":[2,{"x":0,"y":1}]},"b":1}',
  );
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
});
