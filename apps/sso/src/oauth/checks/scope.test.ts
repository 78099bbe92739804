import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OAuthError } from '../../errors';
import { checkScope } from './scope';

const refusal = (requested: string) => {
  try {
    checkScope(requested, 'public profile');
  } catch (error) {
    assert.ok(error instanceof OAuthError);
    return error;
  }
  assert.fail('the scope was accepted');
};

test('a requested scope narrows to the allowed ones, in their order; none asked gives the default', () => {
  assert.equal(checkScope(undefined, 'public profile'), 'public profile');
  assert.equal(checkScope('profile public', 'public profile'), 'public profile');
  assert.equal(checkScope('profile', 'public profile'), 'profile');
});

test('a scope outside the allowed ones is invalid_scope, named in the description', () => {
  const error = refusal('public admin');
  assert.equal(error.error, 'invalid_scope');
  assert.equal(error.description, 'Scope not allowed: admin');
});

test('the description names at most five refused scopes, each cut at 40 characters', () => {
  const long = 'x'.repeat(5_000);
  const error = refusal(`${long} a b c d e f`);
  assert.equal(error.description, `Scope not allowed: ${'x'.repeat(40)}... a b c d (and 2 more)`);
});
