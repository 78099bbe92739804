/**
 * The query cache on Redis (REDIS_URL, the local server) and with Redis down: entries, settings
 * and flushes live in Redis under the configured prefix; an unreachable Redis means every
 * request bypasses the cache and is answered correctly, never an error.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { injectGraphQL, postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNT_QUERY = '{ account { email fullName } }';
const cacheHeader = (response: { headers: Record<string, unknown> }) =>
  response.headers?.['x-fleetgraph-cache'];

function client(stack: () => Stack) {
  return {
    ask: (token: string, query = ACCOUNT_QUERY) =>
      postGraphQL(stack().platform.urls.graphql, query, { token }),
    login: () => stack().login(DEMO_EMAIL, DEMO_PASSWORD),
  };
}

describe('query cache on Redis', () => {
  const prefix = `fleetgraph-test:${randomUUID()}:`;
  let stack: Stack;
  let redis: Redis;
  const { ask, login } = client(() => stack);
  const keys = async (pattern: string) => redis.keys(`${prefix}${pattern}`);

  before(async () => {
    redis = new Redis(REDIS_URL);
    stack = await startStack('e2e_query_cache_redis', {
      REDIS_URL,
      QUERY_CACHE_PREFIX: prefix,
    });
  });
  let closed = false;
  after(async () => {
    if (!closed) await stack?.close();
    const left = await redis.keys(`${prefix}*`);
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
  });

  test('settings and entries are stored in Redis, expiring; hits come from there', async () => {
    const token = await login();
    await ask(token, '{ cache(ttl: 30) { ttl } }');
    const [settingsKey] = await keys('settings:*');
    assert.ok(settingsKey, 'the login settings are in Redis');
    const settingsTtl = await redis.pttl(settingsKey!);
    assert.ok(
      settingsTtl > 7_000_000 && settingsTtl <= 7_200_000,
      `kept until the token expires: ${settingsTtl}`,
    );

    const existing = new Set(await keys('entry:*'));
    const first = await ask(token);
    assert.equal(cacheHeader(first), 'miss');
    const entries = (await keys('entry:*')).filter((key) => !existing.has(key));
    assert.equal(entries.length, 1);
    const entryTtl = await redis.pttl(entries[0]!);
    assert.ok(entryTtl > 25_000 && entryTtl <= 30_000, `entry ttl ${entryTtl}`);

    await stack
      .knex('fleet.accounts')
      .where({ email: DEMO_EMAIL })
      .update({ full_name: 'Changed In Redis Test' });
    const cached = await ask(token);
    assert.equal(cacheHeader(cached), 'hit');
    assert.equal(cached.data.account.fullName, first.data.account.fullName);

    await redis.del(entries[0]!);
    const fresh = await ask(token);
    assert.equal(cacheHeader(fresh), 'miss', 'the entry really was the one in Redis');
    assert.equal(fresh.data.account.fullName, 'Changed In Redis Test');
  });

  test('extendTtl restarts the Redis expiry on a hit', async () => {
    const token = await login();
    const query = '{ account { id email } }';
    await ask(token, '{ cache(ttl: 30, extendTtl: true) { ttl } }');
    const existing = new Set(await keys('entry:*'));
    assert.equal(cacheHeader(await ask(token, query)), 'miss');
    const [entry] = (await keys('entry:*')).filter((key) => !existing.has(key));
    assert.ok(entry, 'the new entry');
    await redis.pexpire(entry!, 5_000);
    assert.equal(cacheHeader(await ask(token, query)), 'hit');
    const ttl = await redis.pttl(entry!);
    assert.ok(ttl > 25_000, `the hit restarted the 30 s expiry: ${ttl} ms left`);
  });

  test('flush deletes the scope entries from Redis; softFlush only outdates them', async () => {
    const token = await login();
    const others = new Set(await keys('entry:*'));
    await ask(token, '{ cache(ttl: 30) { ttl } }');
    await ask(token, '{ account { email } }');
    await ask(token, '{ groups(pageSize: 1) { list { id } } }');
    const before = (await keys('entry:*')).filter((key) => !others.has(key));
    assert.equal(before.length, 3, 'the command request and the two queries');

    await ask(token, '{ cache(ttl: 30, softFlush: true) { softFlush } }');
    const afterSoft = new Set(await keys('entry:*'));
    assert.ok(
      before.every((key) => afterSoft.has(key)),
      'softFlush leaves the keys',
    );
    assert.equal(cacheHeader(await ask(token, '{ account { email } }')), 'miss', 'but they are ignored');

    await ask(token, '{ cache(ttl: 30, flush: true) { flush } }');
    const left = new Set(await keys('entry:*'));
    assert.equal(before.filter((key) => left.has(key)).length, 0, 'flush removed every entry of this login');
    assert.ok(
      [...others].every((key) => left.has(key)),
      "other logins' entries are untouched",
    );
    assert.equal(cacheHeader(await ask(token, '{ groups(pageSize: 1) { list { id } } }')), 'miss');
  });

  /**
   * A second gateway of the stack on the same Redis and prefix, built here so the test hears its
   * near cache: `tracking` settles once Redis tracks it; `invalidation(match)` once it has applied
   * an invalidation naming a matching key. The test waits on Redis's messages, not on the clock.
   */
  async function nearGateway() {
    let tracked!: () => void;
    const tracking = new Promise<void>((resolve) => (tracked = resolve));
    const listeners = new Set<(keys: string[] | null) => void>();
    const app = await buildGateway(
      loadGatewayConfig(stack.gatewayEnv({ REDIS_URL, QUERY_CACHE_PREFIX: prefix })),
      {
        onNearCache: {
          tracking: (on) => on && tracked(),
          invalidated: (keys) => listeners.forEach((listener) => listener(keys)),
        },
      },
    );
    const invalidation = (match: (key: string) => boolean) =>
      new Promise<void>((resolve) => {
        const listener = (keys: string[] | null) => {
          if (keys !== null && !keys.some(match)) return;
          listeners.delete(listener);
          resolve();
        };
        listeners.add(listener);
      });
    const metric = async (name: string) => {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    };
    const ask = (token: string, query: string) => injectGraphQL(app, query, { token });
    return { app, tracking, invalidation, metric, ask };
  }

  // A deadline for failure only: a wait on a Redis message that never comes fails the test.
  const WAITS_ON_REDIS = { timeout: 30_000 };

  test(
    'repeated hits are answered from the near cache while Redis tracks it, as /metrics shows',
    WAITS_ON_REDIS,
    async () => {
      const near = await nearGateway();
      try {
        // Tracking is turned on once both connections are up (and again after a failure).
        await near.tracking;
        assert.equal(await near.metric('gateway_cache_near_tracking'), 1, 'Redis tracks the gateway');
        const token = await login();
        const query = '{ account { id fullName } }';
        await near.ask(token, '{ cache(ttl: 60) { ttl } }');
        assert.equal(cacheHeader(await near.ask(token, query)), 'miss');
        assert.equal(cacheHeader(await near.ask(token, query)), 'hit', 'read from Redis, then held');
        const before = await near.metric('gateway_cache_near_hits_total');
        for (let i = 0; i < 3; i++) {
          const hit = await near.ask(token, query);
          assert.equal(cacheHeader(hit), 'hit');
          assert.equal(hit.data.account.fullName.length > 0, true);
        }
        assert.equal(await near.metric('gateway_cache_near_hits_total'), before + 3);
      } finally {
        await near.app.close();
      }
    },
  );

  for (const command of ['flush', 'softFlush'])
    test(
      `a ${command} through another gateway instance applies to this one's next answer`,
      WAITS_ON_REDIS,
      async () => {
        const near = await nearGateway();
        const other = await buildGateway(
          loadGatewayConfig(stack.gatewayEnv({ REDIS_URL, QUERY_CACHE_PREFIX: prefix })),
        );
        try {
          await near.tracking;
          const token = await login();
          const query = `{ account { fullName shortName } }`;
          await near.ask(token, '{ cache(ttl: 60) { ttl } }');
          assert.equal(cacheHeader(await near.ask(token, query)), 'miss');
          // Hits read from Redis, then from this gateway's near cache (held while Redis tracks it).
          const before = await near.metric('gateway_cache_near_hits_total');
          for (let i = 0; i < 3; i++) assert.equal(cacheHeader(await near.ask(token, query)), 'hit');
          assert.ok((await near.metric('gateway_cache_near_hits_total')) > before, 'the entry is held');
          const name = `Renamed by ${command}`;
          await stack.knex('fleet.accounts').where({ email: DEMO_EMAIL }).update({ full_name: name });
          // Both commands renew the scope's epoch. This gateway applies that when Redis's
          // invalidation reaches it: Redis queues it before the flush's reply, but the two travel on
          // different connections, so the reply to the other gateway can come first.
          const epochDropped = near.invalidation((key) => key.startsWith(`${prefix}epoch:`));
          const flushed = await injectGraphQL(other, `{ cache(ttl: 60, ${command}: true) { ttl } }`, {
            token,
          });
          assert.equal(flushed.errors, undefined, JSON.stringify(flushed.errors));
          await epochDropped;
          const next = await near.ask(token, query);
          assert.equal(cacheHeader(next), 'miss', 'not the entry held before the flush');
          assert.equal(next.data.account.fullName, name);
        } finally {
          await other.close();
          await near.app.close();
        }
      },
    );

  test("closing the stack deletes its rate-limit buckets from Redis, not another stack's", async () => {
    const token = await login();
    assert.equal((await ask(token)).data.account.email, DEMO_EMAIL);
    const buckets = await redis.keys(`${stack.redisPrefix}ratelimit:*`);
    assert.ok(buckets.length > 0, 'the request took a token from a bucket of this stack');
    const another = `fleetgraph-test:another-stack-${randomUUID()}:ratelimit:user`;
    await redis.set(another, '1', 'PX', 60_000);
    try {
      closed = true;
      await stack.close();
      assert.deepEqual(await redis.keys(`${stack.redisPrefix}*`), []);
      assert.equal(await redis.get(another), '1');
    } finally {
      await redis.del(another);
    }
  });
});

describe('query cache with Redis down', () => {
  let stack: Stack;
  const { ask, login } = client(() => stack);
  before(async () => {
    // Port 1 on loopback: nothing listens, connections are refused.
    stack = await startStack('e2e_query_cache_redis_down', { QUERY_CACHE_REDIS_URL: 'redis://127.0.0.1:1' });
  });
  after(() => stack?.close());

  test('every request bypasses the cache and is answered, never an error', async () => {
    const token = await login();
    const enable = await ask(token, '{ cache(ttl: 30) { ttl scope } }');
    assert.equal(enable.errors, undefined, JSON.stringify(enable.errors));
    assert.deepEqual(enable.data.cache, { ttl: 30, scope: 'LOGIN' });
    for (let i = 0; i < 3; i++) {
      const response = await ask(token);
      assert.equal(response.status, 200);
      assert.equal(response.errors, undefined);
      assert.equal(response.data.account.email, DEMO_EMAIL);
      assert.equal(cacheHeader(response), 'bypass');
    }
    const withCommand = await ask(token, '{ cache(ttl: 30, saveSettings: false) { ttl } account { email } }');
    assert.equal(withCommand.errors, undefined);
    assert.equal(withCommand.data.account.email, DEMO_EMAIL);
    assert.equal(cacheHeader(withCommand), 'bypass');
    const metrics = await (await fetch(`${stack.platform.urls.gateway}/metrics`)).text();
    assert.match(metrics, /^gateway_cache_near_tracking 0$/m, 'nothing is answered from process memory');
    assert.match(metrics, /^gateway_cache_near_hits_total 0$/m);
  });
});
