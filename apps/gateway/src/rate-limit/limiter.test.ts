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

describe('Redis token bucket spent through leases', () => {
  const keyPrefix = `fleetgraph:test:ratelimit:${randomUUID()}:`;
  const redis = new Redis(REDIS_URL);
  let clock = 5_000_000;
  const limiters: RateLimiter[] = [];
  const instance = (options: { burst: number; leaseMax: number }) => {
    const limiter = redisLimiter({
      perMinute: 1,
      ...options,
      leaseMs: 1_000,
      now: () => clock,
      redisUrl: REDIS_URL,
      keyPrefix,
      onError: () => {},
    });
    limiters.push(limiter);
    return limiter;
  };
  const shared = async (key: string) => Number(await redis.hget(keyPrefix + key, 't'));
  after(async () => {
    for (const limiter of limiters) await limiter.close();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test('one Redis call leases an eighth of the bucket (at most leaseMax); the next requests spend it locally', async () => {
    const limiter = instance({ burst: 100, leaseMax: 8 });
    assert.equal((await limiter.take('lease')).allowed, true);
    assert.equal(await shared('lease'), 92, 'the request and 7 more tokens left the shared bucket');
    const local = await takeMany(limiter, 'lease', 7);
    assert.ok(local.every((d) => d.allowed));
    assert.equal(await shared('lease'), 92, 'spent from the lease: Redis was not asked');
    await limiter.take('lease');
    assert.equal(await shared('lease'), 84, 'the lease ran out: the next request leased again');
  });

  test('below 2 x 8 tokens a lease is one token, so Redis decides every request exactly', async () => {
    const limiter = instance({ burst: 12, leaseMax: 8 });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      await limiter.take('small');
      seen.push(await shared('small'));
    }
    assert.deepEqual(seen, [11, 10, 9]);
  });

  test('concurrent requests of one user on one instance wait for one Redis call', async () => {
    const limiter = instance({ burst: 100, leaseMax: 8 });
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.take('together')));
    assert.ok(decisions.every((d) => d.allowed));
    assert.equal(await shared('together'), 92, 'eight requests, one lease of eight');
  });

  test('the unused rest of a lease goes back to the bucket with the next call after leaseMs', async () => {
    const limiter = instance({ burst: 100, leaseMax: 8 });
    await limiter.take('expiry');
    assert.equal(await shared('expiry'), 92);
    clock += 1_001;
    await limiter.take('expiry');
    // 92 + 7 returned + 1001 ms at 1 per minute = 99.0167, then a new lease of 8
    assert.ok(Math.abs((await shared('expiry')) - 91.0167) < 0.001, String(await shared('expiry')));
  });

  test('an instance that closes gives its unspent leases back to the bucket', async () => {
    const limiter = redisLimiter({
      perMinute: 1,
      burst: 100,
      leaseMax: 8,
      now: () => clock,
      redisUrl: REDIS_URL,
      keyPrefix,
      onError: () => {},
    });
    await limiter.take('closing');
    assert.equal(await shared('closing'), 92);
    await limiter.close();
    assert.equal(await shared('closing'), 99, 'the 7 tokens it had not spent are back');
  });

  test('two instances spending leases of one user never allow more than the bucket holds', async () => {
    const a = instance({ burst: 100, leaseMax: 8 });
    const b = instance({ burst: 100, leaseMax: 8 });
    let allowed = 0;
    for (let i = 0; i < 150; i++) {
      if ((await (i % 2 === 0 ? a : b).take('two')).allowed) allowed++;
    }
    assert.equal(allowed, 100, 'every token of the bucket, each spent once');
    assert.equal(await shared('two'), 0);
  });
});
