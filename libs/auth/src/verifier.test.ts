import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JWTVerifyGetKey,
} from 'jose';
import { AuthError } from './errors';
import { createTokenVerifier, type VerifierOptions } from './verifier';

const ISSUER = 'http://sso.test';
const AUDIENCE = 'fleetgraph';
/** The verifier's clock (epoch ms), fixed so tokens are judged against it, not the wall clock. */
const T0 = 1_800_000_000_000;
const S0 = T0 / 1000;

const { publicKey, privateKey } = await generateKeyPair('RS256');
const other = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
const jwks = createLocalJWKSet({ keys: [jwk] });

interface Claims {
  iss?: string;
  aud?: string;
  iat?: number;
  exp?: number;
  jti?: string;
  user?: Record<string, string>;
  scope?: string;
  client_id?: string;
}

async function sign(claims: Claims = {}, key: CryptoKey = privateKey, kid = 'k1'): Promise<string> {
  const body = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'u-1',
    iat: S0,
    exp: S0 + 3600,
    jti: 'j-1',
    scope: 'public read',
    user: { uid: 'u-1', email: 'a@example.test', full_name: 'Anna A' },
    ...claims,
  };
  return new SignJWT(body).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
}

function verifier(options: Partial<VerifierOptions> & { clock?: { now: number } } = {}) {
  const clock = options.clock ?? { now: T0 };
  return createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, now: () => clock.now, ...options });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AuthError, `an AuthError, not ${String(error)}`);
    return error.reason;
  }
  assert.fail('the token was accepted');
}

test('a valid RS256 token gives the user context of its claims', async () => {
  const user = await verifier().verify(await sign({ client_id: 'cli' }));
  assert.deepEqual(user, {
    uid: 'u-1',
    email: 'a@example.test',
    fullName: 'Anna A',
    scopes: ['public', 'read'],
    jti: 'j-1',
    exp: S0 + 3600,
    clientId: 'cli',
  });
});

test('only RS256 is accepted: an unsigned or HMAC-signed token is invalid', async () => {
  const v = verifier();
  const unsigned = new UnsecuredJWT({ user: { uid: 'u-1', email: 'a@example.test' }, jti: 'x' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(S0)
    .setExpirationTime(S0 + 60)
    .encode();
  assert.equal(await refusal(v.verify(unsigned)), 'invalid_token');
  const hmac = await new SignJWT({ user: { uid: 'u-1', email: 'a@example.test' }, jti: 'y' })
    .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(S0)
    .setExpirationTime(S0 + 60)
    .sign(new TextEncoder().encode('a shared secret of at least thirty-two bytes'));
  assert.equal(await refusal(v.verify(hmac)), 'invalid_token');
});

test('a token signed by another key, or with another issuer or audience, is invalid', async () => {
  const v = verifier();
  assert.equal(await refusal(v.verify(await sign({}, other.privateKey))), 'invalid_token');
  assert.equal(await refusal(v.verify(await sign({ iss: 'http://evil.test' }))), 'invalid_token');
  assert.equal(await refusal(v.verify(await sign({ aud: 'someone-else' }))), 'invalid_token');
});

test('exp, iat, jti and the user claims are required', async () => {
  const v = verifier();
  for (const missing of ['exp', 'iat', 'jti'] as const) {
    const claims: Claims = {};
    const token = await sign({ ...claims, [missing]: undefined });
    assert.equal(await refusal(v.verify(token)), 'invalid_token', `without ${missing}`);
  }
  assert.equal(await refusal(v.verify(await sign({ user: { uid: 'u-1' } }))), 'invalid_token');
  assert.equal(await refusal(v.verify('not.a.jwt')), 'invalid_token');
});

test('expiry is judged by the injected clock, with the clock tolerance', async () => {
  const clock = { now: T0 };
  const v = verifier({ clock, clockTolerance: 30 });
  const token = await sign({ exp: S0 + 60 });
  assert.equal((await v.verify(token)).uid, 'u-1');
  clock.now = T0 + 89_000; // 29 s past exp: inside the tolerance
  assert.equal((await v.verify(token)).uid, 'u-1');
  clock.now = T0 + 90_000;
  assert.equal(await refusal(v.verify(token)), 'expired_token');
  // A fresh verifier agrees (the refusal comes from the claims, not only from the cache).
  assert.equal(await refusal(verifier({ clock }).verify(token)), 'expired_token');
});

test('a verified token is cached: the key is looked up once per token until the token expires', async () => {
  let lookups = 0;
  const counting: JWTVerifyGetKey = (header, token) => {
    lookups += 1;
    return jwks(header, token);
  };
  const clock = { now: T0 };
  const v = verifier({ clock, jwks: counting, clockTolerance: 0 });
  const token = await sign({ exp: S0 + 10 });
  for (let i = 0; i < 5; i++) await v.verify(token);
  assert.equal(lookups, 1);
  await v.verify(await sign({ jti: 'j-2' }));
  assert.equal(lookups, 2, 'another token is verified on its own');
  clock.now = T0 + 9_999;
  await v.verify(token);
  assert.equal(lookups, 2, 'still cached just before it expires');
  clock.now = T0 + 10_000;
  assert.equal(await refusal(v.verify(token)), 'expired_token', 'a cached token is refused once expired');
});

test('a revoked token is refused, each time it is presented, also when cached', async () => {
  const revoked = new Set<string>();
  const asked: string[] = [];
  const v = verifier({
    isRevoked: (jti) => {
      asked.push(jti);
      return revoked.has(jti);
    },
  });
  const token = await sign({ jti: 'j-rev' });
  assert.equal((await v.verify(token)).jti, 'j-rev');
  revoked.add('j-rev');
  assert.equal(await refusal(v.verify(token)), 'revoked_token');
  assert.deepEqual(asked, ['j-rev', 'j-rev']);
  assert.equal((await v.verify(await sign({ jti: 'j-ok' }))).jti, 'j-ok', 'other tokens pass');
});
