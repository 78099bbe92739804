/**
 * The Redis query cache store's near cache on the local Redis (REDIS_URL): hits answered in
 * process while Redis tracks them, and every change made through another gateway (another store
 * on the same keys) or by Redis itself seen here before a stale entry could be served.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { createNearCache } from './near-cache';
import { redisCacheStore, type CacheStore } from './store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `fleetgraph-test:${randomUUID()}:`;
const TTL = 60_000;
const SCOPE = 'login-1';
/** A test that waits for Redis's message in vain fails instead of hanging the suite. */
const WAIT = { timeout: 10_000 };

/** A gateway's store with a near cache, and promises for what Redis tells it. */
function gatewayStore() {
  let clock = Date.now();
  let hits = 0;
  const waiting: { keys: string[] | null; done: () => void; match: (keys: string[] | null) => boolean }[] =
    [];
  const trackingWaiters = new Map<boolean, (() => void)[]>();
  const store = redisCacheStore({
    redisUrl: REDIS_URL,
    keyPrefix: prefix,
    nearBytes: 1 << 20,
    onError: () => {},
    near: {
      now: () => clock,
      onHit: () => hits++,
      onInvalidated: (keys) => {
        for (const waiter of waiting.splice(0)) {
          if (waiter.match(keys)) waiter.done();
          else waiting.push(waiter);
        }
      },
      onTracking: (on) => {
        for (const done of trackingWaiters.get(on)?.splice(0) ?? []) done();
      },
    },
  });
  return {
    store,
    hits: () => hits,
    advance: (ms: number) => (clock += ms),
    /** Resolves when Redis invalidates a key ending with `suffix`. */
    invalidation: (suffix: string) =>
      new Promise<void>((done) =>
        waiting.push({
          keys: null,
          done,
          match: (keys) => keys === null || keys.some((key) => key.endsWith(suffix)),
        }),
      ),
    tracking: (on: boolean) =>
      new Promise<void>((done) => trackingWaiters.set(on, [...(trackingWaiters.get(on) ?? []), done])),
  };
}

type Gateway = ReturnType<typeof gatewayStore>;
let here: Gateway;
let there: CacheStore;
let admin: Redis;

before(async () => {
  admin = new Redis(REDIS_URL);
  here = gatewayStore();
  const on = here.tracking(true);
  there = redisCacheStore({ redisUrl: REDIS_URL, keyPrefix: prefix, onError: () => {} });
  await on;
});

after(async () => {
  await here.store.close();
  await there.close();
  const left = await admin.keys(`${prefix}*`);
  if (left.length > 0) await admin.del(...left);
  await admin.quit();
});

/** Stores `body` under `key` in the scope's current epoch, then reads it twice here (Redis, then near). */
async function heldEntry(key: string, body: string) {
  const { epoch } = await here.store.lookup(SCOPE, key);
  await here.store.store(SCOPE, key, { epoch, body }, TTL);
  assert.equal((await here.store.lookup(SCOPE, key)).entry?.body, body, 'read from Redis');
  const hits = here.hits();
  const again = await here.store.lookup(SCOPE, key);
  assert.equal(again.entry?.body, body);
  assert.equal(here.hits(), hits + 1, 'answered in this process');
  return again;
}

test(
  'a repeated lookup is answered in this process, with the entry and epoch Redis holds',
  WAIT,
  async () => {
    const held = await heldEntry('q-repeat', '{"data":{"n":1}}');
    assert.equal(held.entry?.epoch, held.epoch);
    assert.equal(await admin.get(`${prefix}entry:${SCOPE}:q-repeat`), `${held.epoch}\n{"data":{"n":1}}`);
  },
);

test(
  'a softFlush through another gateway outdates the entry here as soon as Redis says so',
  WAIT,
  async () => {
    await heldEntry('q-soft', '{"data":{"n":2}}');
    const told = here.invalidation(`epoch:${SCOPE}`);
    await there.bumpEpoch(SCOPE);
    await told;
    const hits = here.hits();
    const after = await here.store.lookup(SCOPE, 'q-soft');
    assert.ok(after.entry, 'the entry is still stored');
    assert.notEqual(after.entry.epoch, after.epoch, 'but outdated by the new epoch');
    assert.equal(here.hits(), hits, 'read from Redis');
  },
);

test('an entry rewritten through another gateway is read again here', WAIT, async () => {
  const held = await heldEntry('q-rewrite', '{"data":{"n":3}}');
  const told = here.invalidation('q-rewrite');
  await there.store(SCOPE, 'q-rewrite', { epoch: held.epoch, body: '{"data":{"n":33}}' }, TTL);
  await told;
  assert.equal((await here.store.lookup(SCOPE, 'q-rewrite')).entry?.body, '{"data":{"n":33}}');
});

test('a flush through this gateway applies here at once, before Redis says so', WAIT, async () => {
  await heldEntry('q-flush', '{"data":{"n":4}}');
  await here.store.flush(SCOPE);
  const after = await here.store.lookup(SCOPE, 'q-flush');
  assert.equal(after.entry, undefined, 'flushed');
});

test('a held entry is not served past the time to live it had in Redis', WAIT, async () => {
  await heldEntry('q-ttl', '{"data":{"n":5}}');
  here.advance(TTL + 1);
  const hits = here.hits();
  await here.store.lookup(SCOPE, 'q-ttl');
  assert.equal(here.hits(), hits, 'asked Redis again (which, on its own clock, still has it)');
});

test(
  'with the invalidation connection gone nothing is served from here; tracking comes back with it',
  WAIT,
  async () => {
    await heldEntry('q-lost', '{"data":{"n":6}}');
    const clients = String(await admin.client('LIST')).split('\n');
    const listener = clients.find((line) => line.includes(` name=${prefix}near-cache `));
    const id = listener?.match(/^id=(\d+) /)?.[1];
    assert.ok(id, 'the invalidation connection is named after the key prefix');
    const lost = here.tracking(false);
    const back = here.tracking(true);
    await admin.client('KILL', 'ID', id);
    await lost;
    const { epoch } = await there.lookup(SCOPE, 'q-lost');
    await there.store(SCOPE, 'q-lost', { epoch, body: '{"data":{"n":66}}' }, TTL);
    assert.equal(
      (await here.store.lookup(SCOPE, 'q-lost')).entry?.body,
      '{"data":{"n":66}}',
      'the change made while nothing could tell this gateway is read from Redis',
    );
    await back;
    await heldEntry('q-lost-again', '{"data":{"n":7}}');
  },
);

test("with the store's own connection gone, tracking is turned on again on the new one", WAIT, async () => {
  await heldEntry('q-main', '{"data":{"n":8}}');
  const clients = String(await admin.client('LIST')).split('\n');
  const listenerId = clients
    .find((line) => line.includes(` name=${prefix}near-cache `))
    ?.match(/^id=(\d+) /)?.[1];
  const main = clients.find((line) => line.includes(` redir=${listenerId} `))?.match(/^id=(\d+) /)?.[1];
  assert.ok(main, 'the store connection redirects its invalidations to the listener');
  const lost = here.tracking(false);
  const back = here.tracking(true);
  await admin.client('KILL', 'ID', main);
  await lost;
  await back;
  const held = await heldEntry('q-main', '{"data":{"n":8}}');
  const told = here.invalidation('q-main');
  await there.store(SCOPE, 'q-main', { epoch: held.epoch, body: '{"data":{"n":88}}' }, TTL);
  await told;
  assert.equal(
    (await here.store.lookup(SCOPE, 'q-main')).entry?.body,
    '{"data":{"n":88}}',
    'Redis tracks the new connection: its change reached this gateway',
  );
});

/** The retries' timer, run at once: the waits it was asked for, in order. */
function retriesAtOnce() {
  const waits: number[] = [];
  const later = (retry: () => void, ms: number) => {
    waits.push(ms);
    setImmediate(retry);
    return () => {};
  };
  return { waits, later };
}

test(
  'turning tracking on that failed (a timed-out CLIENT TRACKING) is tried again, after 1 s then 2 s',
  WAIT,
  async (t) => {
    const redis = new Redis(REDIS_URL);
    const client = redis.client.bind(redis) as (...args: unknown[]) => Promise<unknown>;
    let asked = 0;
    // The first two CLIENT TRACKING fail as command timeouts under load do; the next reaches Redis.
    (redis as unknown as { client: (...args: unknown[]) => Promise<unknown> }).client = (...args) =>
      args[0] === 'TRACKING' && asked++ < 2
        ? Promise.reject(new Error('Command timed out'))
        : client(...args);
    const errors: string[] = [];
    let on!: () => void;
    const tracking = new Promise<void>((resolve) => (on = resolve));
    const retries = retriesAtOnce();
    const near = createNearCache(redis, {
      maxBytes: 1 << 20,
      connectionName: `${prefix}near-cache-retry`,
      onError: (error, operation) => errors.push(`${operation}: ${(error as Error).message}`),
      onTracking: (value) => value && on(),
      later: retries.later,
    });
    // Closed even when the test times out (a version without the retry), so the run ends.
    t.after(async () => {
      await near.close();
      await redis.quit();
    });
    await tracking;
    assert.deepEqual(errors, [
      'near cache tracking: Command timed out',
      'near cache tracking: Command timed out',
    ]);
    assert.equal(asked, 3, 'refused twice, then turned on');
    assert.deepEqual(retries.waits, [1_000, 2_000], 'the wait doubles');
  },
);

type Commands = {
  client: (...args: unknown[]) => Promise<unknown>;
  subscribe: (...args: unknown[]) => Promise<unknown>;
};

/**
 * A gateway composing its schema blocks its event loop past the command timeout: a command of the
 * invalidation connection then fails on this side, though it may have reached Redis.
 */
for (const step of ['CLIENT ID', 'SUBSCRIBE'] as const)
  test(
    `subscribing the invalidation connection that failed (a timed-out ${step}) is tried again`,
    WAIT,
    async (t) => {
      const redis = new Redis(REDIS_URL);
      const duplicate = redis.duplicate.bind(redis);
      const asked: string[] = [];
      const timedOut = () => new Error('Command timed out');
      redis.duplicate = (options) => {
        const listener = duplicate(options);
        const real = {
          client: listener.client.bind(listener),
          subscribe: listener.subscribe.bind(listener),
        } as Commands;
        const commands = listener as unknown as Commands;
        commands.client = async (...args) => {
          if (args[0] !== 'ID') return real.client(...args); // ioredis names the connection itself
          asked.push('CLIENT ID');
          if (step === 'CLIENT ID' && asked.length === 1) throw timedOut();
          return real.client(...args);
        };
        // Redis subscribes the connection; only the answer comes too late.
        commands.subscribe = async (...args) => {
          asked.push('SUBSCRIBE');
          const answer = await real.subscribe(...args);
          if (step === 'SUBSCRIBE' && asked.filter((command) => command === 'SUBSCRIBE').length === 1)
            throw timedOut();
          return answer;
        };
        return listener;
      };
      const errors: string[] = [];
      let on!: () => void;
      const tracking = new Promise<void>((resolve) => (on = resolve));
      let told!: () => void;
      const key = `${prefix}retry-${step.replace(' ', '-')}`;
      const toldOfKey = new Promise<void>((resolve) => (told = resolve));
      const retries = retriesAtOnce();
      const near = createNearCache(redis, {
        maxBytes: 1 << 20,
        connectionName: `${prefix}near-cache-subscribe-retry`,
        onError: (error, operation) => errors.push(`${operation}: ${(error as Error).message}`),
        onTracking: (value) => value && on(),
        onInvalidated: (keys) => {
          if (keys?.includes(key)) told();
        },
        later: retries.later,
      });
      t.after(async () => {
        await near.close();
        await redis.quit();
      });
      await tracking;
      assert.deepEqual(errors, ['near cache subscription: Command timed out']);
      assert.deepEqual(retries.waits, [1_000]);
      assert.deepEqual(
        asked,
        step === 'CLIENT ID'
          ? ['CLIENT ID', 'CLIENT ID', 'SUBSCRIBE']
          : ['CLIENT ID', 'SUBSCRIBE', 'SUBSCRIBE'],
        'the id is asked once per connection: a subscribed connection refuses CLIENT ID',
      );
      // The redirect names the subscribed connection: a change of a key read here is told here.
      await admin.set(key, 'before', 'PX', TTL);
      assert.deepEqual(await near.read(key, `${key}-entry`), ['before', null]);
      await admin.set(key, 'after', 'PX', TTL);
      await toldOfKey;
    },
  );
