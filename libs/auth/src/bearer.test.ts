import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerToken } from './bearer';
import { AuthError } from './errors';

const reason = (header: string | undefined) => {
  try {
    bearerToken(header);
  } catch (error) {
    assert.ok(error instanceof AuthError);
    return error.reason;
  }
  return 'accepted';
};

test('the token of a Bearer header; the scheme is case-insensitive and spaces around are trimmed', () => {
  assert.equal(bearerToken('Bearer abc.def-ghi_jkl'), 'abc.def-ghi_jkl');
  assert.equal(bearerToken('bearer abc'), 'abc');
  assert.equal(bearerToken('BEARER   abc=='), 'abc==');
  assert.equal(bearerToken('  Bearer a+b/c~d  '), 'a+b/c~d');
});

test('no header is missing_token', () => {
  assert.equal(reason(undefined), 'missing_token');
  assert.equal(reason(''), 'missing_token');
});

test('another scheme, no token, or characters outside the b64token syntax are invalid_token', () => {
  for (const header of [
    'Basic dXNlcjpwYXNz',
    'Bearer',
    'Bearer ',
    'Bearer a b',
    'Bearer a,b',
    'Token abc',
    'Bearer =abc',
  ])
    assert.equal(reason(header), 'invalid_token', header);
});
