import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'graphql';
import { checkScopes, graphAccess, SCOPES } from './scopes';

const code = (query: string, scopes: string[]) => checkScopes(parse(query), scopes)?.extensions;

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

test('every scope has a title and a description for the consent page', () => {
  for (const scope of SCOPES) assert.ok(scope.title && scope.description, scope.name);
});
