/** The token bucket in memory and in the local Redis (unique key prefix, removed afterwards). */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { memoryLimiter, redisLimiter, type RateLimiter } from './limiter';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function takeMany(limiter: RateLimiter, key: string, count: number) {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.take(key));
  return decisions;
}

function bucketBehaviour(
  name: string,
  make: (now: () => number) => RateLimiter,
  cleanup?: () => Promise<void>,
) {
  describe(name, () => {
    let clock = 1_000_000;
    const limiter = make(() => clock);
    after(async () => {
      await limiter.close();
      await cleanup?.();
    });

    test('a burst of `burst` requests is allowed, the next one is refused with the wait until a token', async () => {
      const decisions = await takeMany(limiter, 'u-burst', 5);
      assert.deepEqual(
        decisions.map((d) => d.allowed),
        [true, true, true, false, false],
      );
      assert.deepEqual(
        decisions.map((d) => d.remaining),
        [2, 1, 0, 0, 0],
      );
      // 60 per minute = one token per 1000 ms
      assert.equal(decisions[3]?.retryAfterMs, 1000);
    });

    test('the bucket refills at perMinute/60 per second, never above burst', async () => {
      await takeMany(limiter, 'u-refill', 3);
      assert.equal((await limiter.take('u-refill')).allowed, false);
      clock += 400;
      const early = await limiter.take('u-refill');
      assert.equal(early.allowed, false);
      assert.equal(early.retryAfterMs, 600);
      clock += 600;
      assert.equal((await limiter.take('u-refill')).allowed, true, 'one token after one second');
      assert.equal((await limiter.take('u-refill')).allowed, false);
      clock += 60_000;
      const refilled = await takeMany(limiter, 'u-refill', 4);
      assert.deepEqual(
        refilled.map((d) => d.allowed),
        [true, true, true, false],
        'a long pause refills to burst, not more',
      );
    });

    test('each key has its own bucket', async () => {
      await takeMany(limiter, 'u-a', 3);
      assert.equal((await limiter.take('u-a')).allowed, false);
      assert.equal((await limiter.take('u-b')).allowed, true);
    });
  });
}

bucketBehaviour('memory token bucket', (now) => memoryLimiter({ perMinute: 60, burst: 3, now }));

const prefix = `fleetgraph:test:ratelimit:${randomUUID()}:`;
bucketBehaviour(
  'Redis token bucket (Lua, atomic)',
  (now) =>
    redisLimiter({ perMinute: 60, burst: 3, now, redisUrl: REDIS_URL, keyPrefix: prefix, onError: () => {} }),
  async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    assert.ok(keys.length > 0, 'the buckets lived in Redis');
    for (const key of keys) assert.ok((await redis.pttl(key)) > 0, 'every bucket key expires');
    await redis.del(...keys);
    await redis.quit();
  },
);

describe('Redis token bucket, shared and failing open', () => {
  test('two limiters (two gateway instances) share one budget per user', async () => {
    const keyPrefix = `fleetgraph:test:ratelimit:${randomUUID()}:`;
    const options = { perMinute: 60, burst: 2, redisUrl: REDIS_URL, keyPrefix, onError: () => {} };
    const a = redisLimiter(options);
    const b = redisLimiter(options);
    try {
      assert.equal((await a.take('u')).allowed, true);
      assert.equal((await b.take('u')).allowed, true);
      assert.equal((await a.take('u')).allowed, false);
      assert.equal((await b.take('u')).allowed, false);
    } finally {
      await a.close();
      await b.close();
      const redis = new Redis(REDIS_URL);
      await redis.del(`${keyPrefix}u`);
      await redis.quit();
    }
  });

  test('Redis unreachable: requests are allowed and the error is reported once', async () => {
    const errors: unknown[] = [];
    const limiter = redisLimiter({
      perMinute: 1,
      burst: 1,
      redisUrl: 'redis://127.0.0.1:1',
      onError: (error) => errors.push(error),
    });
    try {
      const decisions = await takeMany(limiter, 'u', 5);
      assert.ok(decisions.every((d) => d.allowed));
      assert.equal(errors.length, 1, 'logged once per 30 s, not per request');
    } finally {
      await limiter.close();
    }
  });
});
