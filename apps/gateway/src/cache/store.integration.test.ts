/**
 * The Redis query cache store's records on the local Redis (REDIS_URL): what it leaves in Redis
 * once a scope is no longer used.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { currentEntry, EPOCH_TTL_MS, redisCacheStore, type CacheStore } from './store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `fleetgraph-test:${randomUUID()}:`;

let store: CacheStore;
let admin: Redis;

before(() => {
  admin = new Redis(REDIS_URL);
  store = redisCacheStore({ redisUrl: REDIS_URL, keyPrefix: prefix, onError: () => {} });
});

after(async () => {
  await store.close();
  const left = await admin.keys(`${prefix}*`);
  if (left.length > 0) await admin.del(...left);
  await admin.quit();
});

/** The epoch record's remaining life in ms (-1: it never expires, -2: there is none). */
const epochTtl = (scope: string) => admin.pttl(`${prefix}epoch:${scope}`);

test('a scope’s epoch record expires within a day, however it was set, so scopes of gone logins do not pile up', async () => {
  const { epoch } = await store.lookup('first-use', 'q');
  assert.ok(epoch, 'the first lookup gave the scope an epoch');
  const made = await epochTtl('first-use');
  assert.ok(made > EPOCH_TTL_MS - 60_000 && made <= EPOCH_TTL_MS, `set by a lookup: ${made} ms`);

  await store.bumpEpoch('soft-flushed');
  const bumped = await epochTtl('soft-flushed');
  assert.ok(bumped > EPOCH_TTL_MS - 60_000 && bumped <= EPOCH_TTL_MS, `set by softFlush: ${bumped} ms`);

  await store.store('flushed', 'q', { epoch: 'e', body: '{"data":{}}' }, 60_000);
  await store.flush('flushed');
  const flushed = await epochTtl('flushed');
  assert.ok(flushed > EPOCH_TTL_MS - 60_000 && flushed <= EPOCH_TTL_MS, `set by flush: ${flushed} ms`);
  assert.equal(await admin.exists(`${prefix}entry:flushed:q`), 0, 'the flush deleted the entry');
});

test('when an epoch record expires the scope gets a fresh one: what was stored before reads as a miss', async () => {
  const { epoch } = await store.lookup('expiring', 'q');
  await store.store('expiring', 'q', { epoch, body: '{"data":{"a":1}}' }, 60_000);
  assert.equal((await currentEntry(store, 'expiring', 'q'))?.body, '{"data":{"a":1}}', 'control: a hit');
  await admin.del(`${prefix}epoch:expiring`); // what Redis does when the record expires
  const after = await currentEntry(store, 'expiring', 'q');
  assert.ok(after && after.epoch !== epoch, 'a fresh epoch');
  assert.equal(after.body, undefined, 'the entry of the old epoch is not served');
});
