import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createResilientJwks } from './jwks';

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}
async function makeKey(kid: string): Promise<Key> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}
const sign = (key: Key) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key.privateKey);

let server: Server;
let url: string;
let published: JWK[] = [];
let calls = 0;
let k1: Key;
let k2: Key;

before(async () => {
  [k1, k2] = await Promise.all([makeKey('k1'), makeKey('k2')]);
  server = createServer((_request, response) => {
    calls += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
});
after(() => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())));

test('keys are fetched once; a key added by a rotation is fetched when a token names it', async () => {
  published = [k1.jwk];
  calls = 0;
  const keys = createResilientJwks(url, { cooldownMs: 0 });
  await jwtVerify(await sign(k1), keys);
  await jwtVerify(await sign(k1), keys);
  assert.equal(calls, 1);
  published = [k1.jwk, k2.jwk];
  await jwtVerify(await sign(k2), keys);
  assert.equal(calls, 2);
});

test('an unknown key is refetched at most once per cooldown', async () => {
  published = [k1.jwk];
  calls = 0;
  const keys = createResilientJwks(url, { cooldownMs: 60_000 });
  await jwtVerify(await sign(k1), keys);
  await assert.rejects(jwtVerify(await sign(k2), keys), { code: 'ERR_JWKS_NO_MATCHING_KEY' });
  assert.equal(calls, 1);
});

test('a first fetch that fails leaves no keys: verification fails', async () => {
  const failing = createServer((_request, response) => response.writeHead(503).end());
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  const keys = createResilientJwks(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/jwks`);
  await assert.rejects(jwtVerify(await sign(k1), keys), /HTTP 503/);
  await new Promise<void>((resolve) => failing.close(() => resolve()));
});

// Last: it stops the JWKS server.
test('stale keys keep verifying while the JWKS cannot be fetched; each failed refresh is reported', async () => {
  published = [k1.jwk];
  const errors: Error[] = [];
  let clock = 1_000_000;
  const keys = createResilientJwks(url, {
    maxAgeMs: 1000,
    cooldownMs: 0,
    onError: (e) => errors.push(e),
    now: () => clock,
  });
  await jwtVerify(await sign(k1), keys);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await jwtVerify(await sign(k1), keys);
  assert.equal(errors.length, 0, 'a copy younger than maxAgeMs is not refreshed');
  for (let i = 1; i <= 3; i++) {
    clock += 1001; // older than maxAgeMs: a background refresh is tried, and fails
    await jwtVerify(await sign(k1), keys);
    // The refresh runs in the background: wait (bounded) for its failure to be reported.
    for (let polls = 0; polls < 500 && errors.length < i; polls++) await sleep(10);
    assert.equal(errors.length, i, `refresh failures reported: ${errors.length}`);
  }
});
