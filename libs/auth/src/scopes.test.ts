import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'graphql';
import { checkScopes, graphAccess, SCOPES } from './scopes';

const ME = '6f1c1a2e-0000-4000-8000-000000000001';
const COLLEAGUE = '6f1c1a2e-0000-4000-8000-000000000002';
const code = (query: string, scopes: string[], variables?: Record<string, unknown>) =>
  checkScopes(parse(query), { uid: ME, scopes }, variables)?.extensions;

test("a token's graph access is the widest its scopes give", () => {
  assert.equal(graphAccess(['public']), 'all');
  assert.equal(graphAccess(['profile', 'read']), 'all');
  assert.equal(graphAccess(['profile']), 'profile');
  assert.equal(graphAccess(['write']), 'none');
  assert.equal(graphAccess(['made-up']), 'none');
});

test('profile reads account profile fields, introspection and __typename only', () => {
  assert.equal(code('{ __typename account { id fullName email language } }', ['profile']), undefined);
  assert.equal(code('{ __schema { queryType { name } } }', ['profile']), undefined);
  assert.equal(code('{ devices { count } }', ['profile'])?.field, 'devices');
  assert.equal(code('{ account { ... on Account { phone } } }', ['profile'])?.field, 'account.phone');
  assert.deepEqual(code('{ devices { count } }', ['write'])?.scopes, ['public', 'read']);
});

test("profile reads the caller's own account only: no id, its own id, never a colleague's", () => {
  for (const own of [
    '{ account { email } }',
    `{ account(id: "${ME}") { email } }`,
    `{ account(id: "${ME.toUpperCase()}") { email } }`,
    '{ account(id: null) { email } }',
    'query($id: ID) { account(id: $id) { email } }',
  ])
    assert.equal(code(own, ['profile']), undefined, own);
  assert.equal(code('query($id: ID) { account(id: $id) { email } }', ['profile'], { id: ME }), undefined);
  for (const [query, variables] of [
    [`{ a0: account(id: "${COLLEAGUE}") { email fullName } }`, undefined],
    ['query($id: ID) { account(id: $id) { email } }', { id: COLLEAGUE }],
    [`query($id: ID = "${COLLEAGUE}") { account(id: $id) { email } }`, {}],
    [`{ account { id } other: account(id: "${COLLEAGUE}") { id } }`, undefined],
    [`query { ...F } fragment F on Query { account(id: "${COLLEAGUE}") { email } }`, undefined],
    ['{ account(id: 12) { email } }', undefined],
  ] as const) {
    const refused = code(query, ['profile'], variables);
    assert.equal(refused?.code, 'INSUFFICIENT_SCOPE', query);
    assert.equal(refused?.field, 'account(id)', query);
    assert.deepEqual(refused?.scopes, ['public', 'read']);
  }
  assert.equal(code(`{ account(id: "${COLLEAGUE}") { email } }`, ['public']), undefined);
});

test('every scope has a title and a description for the consent page', () => {
  for (const scope of SCOPES) assert.ok(scope.title && scope.description, scope.name);
});
