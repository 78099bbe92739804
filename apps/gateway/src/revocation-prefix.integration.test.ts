/**
 * REVOCATION_PREFIX: the gateway reads the shared revocation list in Redis under the prefix it is
 * given (the SSO's), and only there, so two platforms can share one Redis.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { deleteRedisKeys, injectGraphQL } from '@fleetgraph/testing';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUERY = '{ account { email } }';
let stubs: StubbedGateways;
let redis: Redis;
/** This file's keys (its revocations and the gateway's rate-limit buckets), deleted at the end. */
const base = `fleetgraph-test:${randomUUID()}:`;
const written: string[] = [];

before(async () => {
  stubs = await stubbedGateways();
  redis = new Redis(REDIS_URL);
});
after(async () => {
  if (written.length > 0) await redis.del(...written);
  await redis.quit();
  await deleteRedisKeys(REDIS_URL, base);
  await stubs.close();
});

const jtiOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;

async function revokeUnder(prefix: string, jti: string) {
  written.push(`${prefix}${jti}`);
  await redis.set(`${prefix}${jti}`, '1', 'EX', 60);
}

test('a token revoked under REVOCATION_PREFIX is refused; one revoked under another prefix is not', async () => {
  const prefix = `${base}revoked:`;
  // No reuse of answers, so each request asks Redis.
  const app = await stubs.gateway({
    REDIS_URL,
    REVOCATION_PREFIX: prefix,
    REVOCATION_CACHE_MS: '0',
    RATE_LIMIT_PREFIX: `${base}ratelimit:`,
    COST_BUDGET_PREFIX: `${base}budget:`,
  });
  const uid = `revocation-prefix-${randomUUID()}`;
  const email = `${uid}@example.test`;
  const token = await stubs.issuer.token({ uid, email });

  await revokeUnder('fleetgraph:revoked:', jtiOf(token));
  const other = await injectGraphQL(app, QUERY, { token });
  assert.equal(other.status, 200, JSON.stringify(other.errors));
  assert.deepEqual(other.data, { account: { email } });

  await revokeUnder(prefix, jtiOf(token));
  const refused = await injectGraphQL(app, QUERY, { token });
  assert.equal(refused.status, 401);
  assert.equal(refused.data, undefined);
  assert.equal(refused.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
});
