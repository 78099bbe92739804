import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerChallenge } from './challenge';
import { AuthError } from './errors';

test('no token: a bare Bearer challenge without an error code (RFC 6750 3.1)', () => {
  const c = bearerChallenge(new AuthError('missing_token', 'Authentication required'));
  assert.equal(c.status, 401);
  assert.equal(c.header, 'Bearer realm="fleetgraph"');
  assert.equal(c.body.errors[0]?.extensions.code, 'UNAUTHENTICATED');
});

test('a bad, expired or revoked token: error="invalid_token", and the message in the body only', () => {
  for (const reason of ['invalid_token', 'expired_token', 'revoked_token'] as const) {
    const c = bearerChallenge(new AuthError(reason, 'token "expired"'));
    assert.equal(c.header, 'Bearer realm="fleetgraph", error="invalid_token"');
    assert.equal(c.body.errors[0]?.message, 'token "expired"');
  }
});
