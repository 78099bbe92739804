/**
 * Per-login rate limiting over HTTP through the real gateway: RATE_LIMITED with HTTP 429, a
 * Retry-After header and the delay in extensions; a refused request never reaches a subgraph;
 * another login keeps its own budget; the budget refills; the same with Redis (REDIS_URL).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { deleteRedisKeys, injectGraphQL } from '@fleetgraph/testing';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUERY = '{ account { email } }';
let stubs: StubbedGateways;

before(async () => {
  stubs = await stubbedGateways();
});
after(async () => {
  await stubs.close();
});

async function login(label: string) {
  const uid = `${label}-${randomUUID()}`;
  const email = `${uid}@example.test`;
  return { uid, email, token: await stubs.issuer.token({ uid, email }) };
}

for (const store of ['memory', 'Redis'] as const) {
  describe(`rate limit per login (${store})`, () => {
    const budgetPrefix = `fleetgraph-test:${randomUUID()}:budget:`;
    const env: Record<string, string> = {
      RATE_LIMIT_PER_MINUTE: '60',
      RATE_LIMIT_BURST: '3',
      COST_BUDGET_PREFIX: budgetPrefix,
      ...(store === 'Redis' ? { REDIS_URL } : {}),
    };
    const uids: string[] = [];
    // The limiter's clock: it only moves when a test moves it, so a slow machine cannot refill a
    // bucket between two requests.
    let clock = Date.now();
    const frozen = { now: () => clock };
    beforeEach(() => {
      clock = Date.now();
    });
    after(async () => {
      if (store !== 'Redis') return;
      const redis = new Redis(REDIS_URL);
      await redis.del(...uids.map((uid) => `fleetgraph:ratelimit:${uid}`));
      await redis.quit();
      await deleteRedisKeys(REDIS_URL, budgetPrefix);
    });

    test('over the limit: HTTP 429, RATE_LIMITED, Retry-After, and no subgraph call', async () => {
      const app = await stubs.gateway(env, frozen);
      const user = await login('burst');
      uids.push(user.uid);
      for (let i = 0; i < 3; i++) {
        const ok = await injectGraphQL(app, QUERY, { token: user.token });
        assert.equal(ok.status, 200, JSON.stringify(ok.errors));
        assert.deepEqual(ok.data, { account: { email: user.email } });
      }
      stubs.resetCalls();
      const refused = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.data, undefined);
      assert.equal(refused.errors?.length, 1);
      assert.deepEqual(refused.errors?.[0]?.extensions, {
        code: 'RATE_LIMITED',
        retryAfterSeconds: 1,
        limitPerMinute: 60,
      });
      assert.match(refused.errors?.[0]?.message ?? '', /60 requests per minute.*Retry in 1 s/);
      assert.equal(stubs.calls(), 0, 'a refused request never reaches a subgraph');
    });

    test('another login is not affected by one that is over its limit', async () => {
      const app = await stubs.gateway(env, frozen);
      const busy = await login('busy');
      const other = await login('other');
      uids.push(busy.uid, other.uid);
      for (let i = 0; i < 4; i++) await injectGraphQL(app, QUERY, { token: busy.token });
      assert.equal((await injectGraphQL(app, QUERY, { token: busy.token })).status, 429);
      const response = await injectGraphQL(app, QUERY, { token: other.token });
      assert.equal(response.status, 200);
      assert.deepEqual(response.data, { account: { email: other.email } });
    });

    test('a new token of the same user shares the budget (the key is the user, not the token)', async () => {
      const app = await stubs.gateway(env, frozen);
      const user = await login('relogin');
      uids.push(user.uid);
      for (let i = 0; i < 3; i++) await injectGraphQL(app, QUERY, { token: user.token });
      const again = await stubs.issuer.token({ uid: user.uid, email: user.email });
      assert.equal((await injectGraphQL(app, QUERY, { token: again })).status, 429);
    });

    test('the budget refills: after the announced Retry-After the login may send again', async () => {
      const app = await stubs.gateway({ ...env, RATE_LIMIT_BURST: '1' }, frozen);
      const warm = await login('warm-up');
      uids.push(warm.uid);
      await injectGraphQL(app, QUERY, { token: warm.token }); // plans the query once
      const user = await login('refill');
      uids.push(user.uid);
      assert.equal((await injectGraphQL(app, QUERY, { token: user.token })).status, 200);
      const refused = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(refused.status, 429);
      const wait = Number(refused.headers['retry-after']);
      assert.equal(wait, 1, '60 per minute: one request per second');
      clock += (wait * 1000) / 2;
      const early = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(early.status, 429, 'not before the announced delay');
      clock += (wait * 1000) / 2;
      const later = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(later.status, 200, JSON.stringify(later.errors));
      assert.deepEqual(later.data, { account: { email: user.email } });
    });
  });
}

describe('rate limit configuration', () => {
  test('RATE_LIMIT_PER_MINUTE=0 turns it off', async () => {
    const app = await stubs.gateway({ RATE_LIMIT_PER_MINUTE: '0' });
    const user = await login('off');
    for (let i = 0; i < 30; i++) {
      const response = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(response.status, 200);
    }
  });

  test('requests without a valid token are UNAUTHENTICATED, not counted against anyone', async () => {
    const app = await stubs.gateway({ RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_BURST: '1' });
    for (let i = 0; i < 3; i++) {
      const response = await injectGraphQL(app, QUERY, { token: 'not-a-token' });
      assert.equal(response.status, 401);
      assert.equal(response.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
    }
  });

  test('Redis unreachable: requests are served (the limiter fails open)', async () => {
    const app = await stubs.gateway({
      RATE_LIMIT_PER_MINUTE: '60',
      RATE_LIMIT_BURST: '1',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    const user = await login('redis-down');
    for (let i = 0; i < 3; i++) {
      const response = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(response.status, 200, JSON.stringify(response.errors));
      assert.deepEqual(response.data, { account: { email: user.email } });
    }
  });
});
