import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { createRevocationList, createTokenVerifier, type RevocationList } from '@fleetgraph/auth';
import {
  basicAuth,
  decodePart,
  insertApplication,
  insertUser,
  postToken,
  startSso,
  TEST_ISSUER,
  type SsoHarness,
} from './test-harness';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

async function behavesAsARevocationList(list: RevocationList) {
  const jti = randomUUID();
  assert.equal(await list.isRevoked(jti), false);
  await list.revoke(jti, inAnHour());
  assert.equal(await list.isRevoked(jti), true);
  const expired = randomUUID();
  await list.revoke(expired, Math.floor(Date.now() / 1000) - 1);
  assert.equal(await list.isRevoked(expired), false, 'an already expired token is not stored');
}

/** Removes what a test wrote under its own prefix (the keys would otherwise live an hour). */
async function deleteKeys(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const raw = new Redis(REDIS_URL);
  try {
    const keys = await raw.keys(`${prefix}*`);
    if (keys.length > 0) await raw.del(...keys);
  } finally {
    await raw.quit();
  }
}

describe('createRevocationList', () => {
  test('in memory', async () => {
    const list = createRevocationList();
    await behavesAsARevocationList(list);
    await list.close();
  });

  test('on Redis: one key per jti, expiring with the token, shared between instances', async (t) => {
    if (!(await redisReachable(REDIS_URL))) return t.skip(`no Redis at ${REDIS_URL}`);
    const prefix = `test:${randomUUID()}:`;
    const writer = createRevocationList({ redisUrl: REDIS_URL, keyPrefix: prefix });
    const reader = createRevocationList({ redisUrl: REDIS_URL, keyPrefix: prefix });
    try {
      await behavesAsARevocationList(writer);
      const jti = randomUUID();
      await writer.revoke(jti, inAnHour());
      assert.equal(await reader.isRevoked(jti), true, 'another instance sees it');
      const { Redis } = await import('ioredis');
      const raw = new Redis(REDIS_URL);
      const ttl = await raw.ttl(`${prefix}${jti}`);
      await raw.quit();
      assert.ok(ttl > 3500 && ttl <= 3600, `ttl ${ttl}`);
    } finally {
      await writer.close();
      await reader.close();
      await deleteKeys(prefix);
    }
  });

  test('a Redis that cannot be reached: isRevoked answers false and reports, never throws', async () => {
    const errors: string[] = [];
    const list = createRevocationList({
      redisUrl: 'redis://127.0.0.1:1',
      onError: (_e, op) => errors.push(op),
    });
    try {
      assert.equal(await list.isRevoked(randomUUID()), false);
      assert.deepEqual(errors, ['isRevoked']);
      await assert.rejects(list.revoke(randomUUID(), inAnHour()));
    } finally {
      await list.close();
    }
  });

  test('cacheMs reuses answers for a short while', async () => {
    const list = createRevocationList({ cacheMs: 60_000 });
    const jti = randomUUID();
    assert.equal(await list.isRevoked(jti), false);
    await list.revoke(jti, inAnHour());
    assert.equal(await list.isRevoked(jti), true, 'its own revocations are seen at once');
    await list.close();
  });
});

describe('revocations reach a gateway verifier', () => {
  const revocations = createRevocationList();
  let sso: SsoHarness;
  before(async () => {
    sso = await startSso('revocation_list', {}, { revocations });
  });
  after(() => sso?.close());

  test('refresh reuse revokes the family: a verifier with isRevoked refuses its access tokens', async () => {
    const user = await insertUser(sso.knex);
    const client = await insertApplication(sso.knex);
    const headers = { authorization: basicAuth(client.clientId, client.clientSecret!) };
    const first = (
      await postToken(
        sso.app,
        { grant_type: 'password', username: user.email, password: user.password },
        { headers },
      )
    ).json();
    const second = (
      await postToken(
        sso.app,
        { grant_type: 'refresh_token', refresh_token: first.refresh_token },
        { headers },
      )
    ).json();
    const jwks = (await sso.app.inject({ url: '/.well-known/jwks.json' })).json();
    const { createLocalJWKSet } = await import('jose');
    // What the gateway does: local signature check, then the shared list.
    const verifier = createTokenVerifier({
      issuer: TEST_ISSUER,
      audience: 'fleetgraph',
      jwks: createLocalJWKSet(jwks),
      isRevoked: (jti) => revocations.isRevoked(jti),
    });
    assert.equal((await verifier.verify(second.access_token)).uid, user.id);

    const reuse = await postToken(
      sso.app,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { headers },
    );
    assert.equal(reuse.json().error, 'invalid_grant');
    for (const token of [first.access_token, second.access_token]) {
      assert.equal(await revocations.isRevoked(decodePart(token, 1).jti), true);
      await assert.rejects(verifier.verify(token), /revoked/);
    }
  });
});
