/** The in-memory cache store: epochs that never revive flushed entries, and scoped flushes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeEntry, encodeEntry, memoizeSettings, memoryCacheStore, type CacheStore } from './store';

const TTL = 60_000;

test('a scope whose epoch record was evicted gets a fresh epoch: entries hidden by softFlush stay hidden', async () => {
  const store = memoryCacheStore({ maxBytes: 1 << 20, maxScopes: 2 });
  const before = await store.lookup('a', 'q');
  await store.store('a', 'q', { epoch: before.epoch, body: '{"data":1}' }, TTL);
  assert.equal((await store.lookup('a', 'q')).entry?.epoch, before.epoch, 'control: a valid entry');
  await store.bumpEpoch('a');
  const outdated = await store.lookup('a', 'q');
  assert.notEqual(outdated.entry?.epoch, outdated.epoch, 'softFlush outdates the entry');
  // Two other scopes push a's epoch record out of the bounded epoch table.
  await store.lookup('b', 'q');
  await store.lookup('c', 'q');
  const again = await store.lookup('a', 'q');
  assert.ok(again.entry, 'the entry itself is still stored');
  assert.notEqual(again.entry.epoch, again.epoch, 'and still outdated after the eviction');
});

test('flush deletes the entries of its scope only', async () => {
  const store = memoryCacheStore({ maxBytes: 1 << 20 });
  for (const scope of ['a', 'b'])
    for (const key of ['q1', 'q2']) {
      const { epoch } = await store.lookup(scope, key);
      await store.store(scope, key, { epoch, body: `${scope}${key}` }, TTL);
    }
  await store.flush('a');
  assert.equal((await store.lookup('a', 'q1')).entry, undefined);
  assert.equal((await store.lookup('a', 'q2')).entry, undefined);
  const b = await store.lookup('b', 'q1');
  assert.equal(b.entry?.body, 'bq1');
  assert.equal(b.entry?.epoch, b.epoch);
});

test('an entry replaced or evicted is forgotten by its scope, so later flushes stay correct', async () => {
  const store = memoryCacheStore({ maxBytes: 200 });
  const { epoch } = await store.lookup('a', 'q');
  await store.store('a', 'q', { epoch, body: 'x'.repeat(40) }, TTL);
  await store.store('a', 'q', { epoch, body: 'y'.repeat(40) }, TTL);
  assert.equal((await store.lookup('a', 'q')).entry?.body, 'y'.repeat(40));
  // Larger entries of another scope evict a's.
  for (let i = 0; i < 3; i++) await store.store('b', `q${i}`, { epoch: 'e', body: 'z'.repeat(40) }, TTL);
  assert.equal((await store.lookup('a', 'q')).entry, undefined);
  await store.flush('a');
  assert.ok((await store.lookup('b', 'q2')).entry, "a's flush leaves b's entries");
});

test('a Redis entry is its epoch and its body as they are; entries in the earlier JSON record still read', () => {
  const entry = { epoch: 'e-1', body: '{"data":{"a":"line\\nbreak \\"quoted\\""}}' };
  const raw = encodeEntry(entry);
  assert.equal(raw, `e-1\n${entry.body}`);
  assert.deepEqual(decodeEntry(raw), entry);
  assert.deepEqual(decodeEntry(JSON.stringify(entry)), entry);
  assert.throws(() => decodeEntry('no separator'), /unreadable/);
});

test("a shared store's login settings are reused for ttlMs, found or not; this instance's saves apply at once", async () => {
  let clock = 1_000;
  let reads = 0;
  let available = true;
  const shared = memoryCacheStore({ maxBytes: 1 << 20, now: () => clock });
  const counted: CacheStore = {
    ...shared,
    available: () => available,
    async getSettings(tokenId) {
      reads += 1;
      return shared.getSettings(tokenId);
    },
  };
  const store = memoizeSettings(counted, { ttlMs: 1000, now: () => clock });
  const settings = { scope: 'LOGIN' as const, ttl: 60, extendTtl: false };

  assert.equal(await store.getSettings('jti-1'), undefined);
  assert.equal(await store.getSettings('jti-1'), undefined);
  assert.equal(reads, 1, 'no settings: remembered too');

  await store.saveSettings('jti-1', settings, 60_000);
  assert.deepEqual(await store.getSettings('jti-1'), settings, "this instance's save applies at once");
  assert.equal(reads, 1);

  // Saved through another instance (straight into the shared store): seen once the memo expires.
  await shared.saveSettings('jti-1', { ...settings, ttl: 5 }, 60_000);
  assert.equal((await store.getSettings('jti-1'))?.ttl, 60);
  clock += 1001;
  assert.equal((await store.getSettings('jti-1'))?.ttl, 5);
  assert.equal(reads, 2);

  // While the store is away its "nothing" is not remembered.
  available = false;
  clock += 1001;
  await store.getSettings('jti-2');
  available = true;
  await store.getSettings('jti-2');
  assert.equal(reads, 4);

  assert.equal(memoizeSettings(counted, { ttlMs: 0 }), counted, 'ttlMs 0: every request reads the store');
});
