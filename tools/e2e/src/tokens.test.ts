/**
 * The gateway refuses every token that is not a valid, current RS256 token of our SSO:
 * UNAUTHENTICATED, HTTP 401, and no data at all.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT, importJWK, exportSPKI, type JWK } from 'jose';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { createKeyCipher } from '@fleetgraph/sso';
import { startStack, type Stack } from './stack';

let stack: Stack;
let valid: string;
let signingKey: { kid: string; private_jwk: JWK; public_jwk: JWK };
// The SSO seals its private keys with this (SSO_KEY_ENCRYPTION_KEY): the test opens the row as an
// insider with the key would, to forge tokens signed by the real key.
const KEY_ENCRYPTION_KEY = 'e2e-tokens-key-encryption-key-0123456789';
before(async () => {
  stack = await startStack('e2e_tokens', { SSO_KEY_ENCRYPTION_KEY: KEY_ENCRYPTION_KEY });
  valid = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  const row = await stack
    .knex('sso.signing_keys')
    .whereNull('retired_at')
    .orderBy('created_at', 'desc')
    .first();
  signingKey = { ...row, private_jwk: createKeyCipher(KEY_ENCRYPTION_KEY).open(row.private_jwk, row.kid) };
});
after(() => stack?.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

async function signWithSsoKey(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const key = await importJWK(signingKey.private_jwk, 'RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: signingKey.kid, ...header })
    .sign(key);
}

async function expectRefused(token: string | undefined) {
  const res = await postGraphQL(
    stack.platform.urls.graphql,
    '{ account { id email } }',
    token ? { token } : {},
  );
  assert.equal(res.status, 401);
  assert.equal(res.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  assert.equal(res.data ?? null, null, 'no data with a refused token');
  // RFC 6750 3.1: a challenge always; an error code only when a token was sent.
  assert.equal(
    res.headers['www-authenticate'],
    token === undefined ? 'Bearer realm="fleetgraph"' : 'Bearer realm="fleetgraph", error="invalid_token"',
  );
}

describe('token checks at the gateway', () => {
  test('a valid token is accepted (control)', async () => {
    const res = await postGraphQL(stack.platform.urls.graphql, '{ account { email } }', { token: valid });
    assert.equal(res.data?.account.email, DEMO_EMAIL);
  });

  test('no token', () => expectRefused(undefined));

  test('an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(
      await signWithSsoKey({ ...claimsOf(valid), jti: randomUUID(), iat: now - 9000, exp: now - 1800 }),
    );
  });

  test('a token of another issuer', async () => {
    await expectRefused(
      await signWithSsoKey({ ...claimsOf(valid), jti: randomUUID(), iss: 'https://evil.example' }),
    );
  });

  test('a bad signature', async () => {
    const [header, payload, signature] = valid.split('.');
    const flipped = Buffer.from(signature!, 'base64url');
    flipped[0] = flipped[0]! ^ 0xff;
    await expectRefused(`${header}.${payload}.${flipped.toString('base64url')}`);
    const forgedPayload = b64({
      ...claimsOf(valid),
      user: { ...claimsOf(valid).user, email: 'admin@evil.example' },
    });
    await expectRefused(`${header}.${forgedPayload}.${signature}`);
  });

  test('alg none', async () => {
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(valid))}.`);
  });

  test('HS256 signed with the public key', async () => {
    const publicKey = await importJWK(signingKey.public_jwk, 'RS256');
    const pem = await exportSPKI(publicKey as Parameters<typeof exportSPKI>[0]);
    for (const secret of [pem, JSON.stringify(signingKey.public_jwk)]) {
      const token = await new SignJWT(claimsOf(valid))
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signingKey.kid })
        .sign(new TextEncoder().encode(secret));
      await expectRefused(token);
    }
  });

  test('a token with an unknown kid', async () => {
    await expectRefused(
      await signWithSsoKey({ ...claimsOf(valid), jti: randomUUID() }, { kid: 'not-a-key' }),
    );
  });
});
