/**
 * Where the per-login query cache keeps its data: Redis when REDIS_URL is set (shared by every
 * gateway instance), else a bounded in-memory LRU. Three kinds of records:
 * - settings of a login (by token id), expiring with the access token;
 * - the epoch of a scope: a random token that softFlush and flush replace; an entry counts only
 *   under the epoch it was stored with (no clock comparison, so several gateways' clocks need not
 *   agree). A scope without an epoch record (never used, or its record evicted under memory
 *   pressure) gets a fresh one, so a lost record can only cause misses, never revive entries a
 *   flush had hidden;
 * - entries: a serialized response with the epoch it was stored under, expiring after its ttl.
 * In Redis an epoch record expires a day after it was set (EPOCH_TTL_MS), so the scopes of logins
 * long gone do not pile up (one record per login that turned caching on, in a Redis that may not
 * evict); a scope still in use then reads its entries as misses once, like an evicted record.
 * A store never throws: an unavailable Redis reads as "nothing cached" and writes are skipped,
 * so the request is answered by the subgraphs (bypass).
 */
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { optionalRedis } from '@fleetgraph/service-kit';
import { createNearCache, type NearCacheOptions } from './near-cache';
import type { CacheSettings } from './settings';

export interface CachedEntry {
  epoch: string;
  body: string;
}

export interface CacheStore {
  /** Whether the store can answer now (false: Redis unavailable, the request bypasses). */
  available(): boolean;
  getSettings(tokenId: string): Promise<CacheSettings | undefined>;
  saveSettings(tokenId: string, settings: CacheSettings, ttlMs: number): Promise<void>;
  /** The scope's current epoch and the entry under `key` (one round trip). */
  lookup(scopeKey: string, key: string): Promise<{ epoch: string; entry: CachedEntry | undefined }>;
  store(scopeKey: string, key: string, entry: CachedEntry, ttlMs: number): Promise<void>;
  /** Restarts an entry's time to live (extendTtl). */
  touch(scopeKey: string, key: string, ttlMs: number): Promise<void>;
  /** Ignores every entry of the scope stored so far (softFlush). */
  bumpEpoch(scopeKey: string): Promise<void>;
  /** Removes every entry of the scope (flush); also bumps the epoch against in-flight stores. */
  flush(scopeKey: string): Promise<void>;
  close(): Promise<void>;
}

const newEpoch = () => randomBytes(9).toString('base64url');

/**
 * The scope's current epoch and the body stored under `key` if it was stored in that epoch (an
 * entry of an earlier epoch was soft-flushed); undefined while the store is away. The one reading
 * of a hit, for the cache plugin and the front door alike.
 */
export async function currentEntry(
  store: CacheStore,
  scopeKey: string,
  key: string,
): Promise<{ epoch: string; body: string | undefined } | undefined> {
  const { epoch, entry } = await store.lookup(scopeKey, key);
  if (!store.available()) return undefined;
  return { epoch, body: entry && entry.epoch === epoch ? entry.body : undefined };
}

/** Responses larger than this are not cached (they still run). */
export const MAX_ENTRY_BYTES = 1024 * 1024;

/** How long a scope's epoch record lives in Redis (see the top of this file). */
export const EPOCH_TTL_MS = 24 * 60 * 60 * 1000;

interface Timed<T> {
  value: T;
  expiresAt: number;
}

export interface MemoryStoreOptions {
  maxBytes: number;
  /** Scopes whose epoch and settings are remembered (default 100,000; least recently used go). */
  maxScopes?: number;
  /** Clock in ms (tests move it). */
  now?: () => number;
}

export function memoryCacheStore(options: MemoryStoreOptions): CacheStore {
  const now = options.now ?? Date.now;
  const entryKey = (scopeKey: string, key: string) => `${scopeKey}\u0000${key}`;
  // The entry keys of each scope, so that a flush deletes only its own (no walk over all keys).
  const scopeEntries = new Map<string, Set<string>>();
  const entries = new LRUCache<string, Timed<CachedEntry>>({
    maxSize: options.maxBytes,
    sizeCalculation: (value, key) => Math.max(1, (value.value.body.length + key.length) * 2),
    dispose: (_value, key, reason) => {
      if (reason === 'set') return; // replaced in place: still an entry of its scope
      const scopeKey = key.slice(0, key.indexOf('\u0000'));
      const keys = scopeEntries.get(scopeKey);
      keys?.delete(key);
      if (keys?.size === 0) scopeEntries.delete(scopeKey);
    },
  });
  const settings = new LRUCache<string, Timed<CacheSettings>>({ max: options.maxScopes ?? 100_000 });
  const epochs = new LRUCache<string, string>({ max: options.maxScopes ?? 100_000 });
  const epochOf = (scopeKey: string) => {
    let epoch = epochs.get(scopeKey);
    if (epoch === undefined) epochs.set(scopeKey, (epoch = newEpoch()));
    return epoch;
  };
  const live = <T>(record: Timed<T> | undefined): T | undefined =>
    record && record.expiresAt > now() ? record.value : undefined;
  return {
    available: () => true,
    async getSettings(tokenId) {
      return live(settings.get(tokenId));
    },
    async saveSettings(tokenId, value, ttlMs) {
      settings.set(tokenId, { value, expiresAt: now() + ttlMs });
    },
    async lookup(scopeKey, key) {
      return { epoch: epochOf(scopeKey), entry: live(entries.get(entryKey(scopeKey, key))) };
    },
    async store(scopeKey, key, entry, ttlMs) {
      if (entry.body.length > MAX_ENTRY_BYTES) return;
      const full = entryKey(scopeKey, key);
      entries.set(full, { value: entry, expiresAt: now() + ttlMs });
      if (!entries.has(full)) return; // larger than the whole cache: not kept
      let keys = scopeEntries.get(scopeKey);
      if (!keys) scopeEntries.set(scopeKey, (keys = new Set()));
      keys.add(full);
    },
    async touch(scopeKey, key, ttlMs) {
      const record = entries.get(entryKey(scopeKey, key));
      if (record && record.expiresAt > now()) record.expiresAt = now() + ttlMs;
    },
    async bumpEpoch(scopeKey) {
      epochs.set(scopeKey, newEpoch());
    },
    async flush(scopeKey) {
      epochs.set(scopeKey, newEpoch());
      for (const key of [...(scopeEntries.get(scopeKey) ?? [])]) entries.delete(key);
    },
    async close() {
      entries.clear();
      scopeEntries.clear();
      settings.clear();
      epochs.clear();
    },
  };
}

export interface SettingsMemoOptions {
  /** How long a read is reused (0: the store is returned as it is). */
  ttlMs: number;
  /** Logins remembered (default 100,000; least recently used go). */
  maxLogins?: number;
  /** Clock in ms (tests move it). */
  now?: () => number;
}

/**
 * A shared store whose login settings are reused in this process for `ttlMs` (found or not), so
 * that a request does not pay a Redis round trip for them: each request needs them, and they
 * change only when the login sends a `cache` command. One saved through this process applies at
 * once; one saved through another gateway instance, within ttlMs (as REVOCATION_CACHE_MS does for
 * revocations). Flushes are epochs in the store, never memoized here (the near cache holds them
 * only while Redis tracks them, near-cache.ts).
 */
export function memoizeSettings(store: CacheStore, options: SettingsMemoOptions): CacheStore {
  if (options.ttlMs <= 0) return store;
  const now = options.now ?? Date.now;
  const memo = new LRUCache<string, Timed<CacheSettings | undefined>>({ max: options.maxLogins ?? 100_000 });
  const remember = (tokenId: string, value: CacheSettings | undefined) =>
    memo.set(tokenId, { value, expiresAt: now() + options.ttlMs });
  return {
    ...store,
    async getSettings(tokenId) {
      const known = memo.get(tokenId);
      if (known && known.expiresAt > now()) return known.value;
      const value = await store.getSettings(tokenId);
      // Not remembered while the store is away: its "nothing" is a fallback, not an answer.
      if (store.available()) remember(tokenId, value);
      return value;
    },
    async saveSettings(tokenId, value, ttlMs) {
      await store.saveSettings(tokenId, value, ttlMs);
      // Never past the settings' own lifetime (the access token's).
      memo.set(tokenId, { value, expiresAt: now() + Math.min(options.ttlMs, ttlMs) });
    },
    async close() {
      memo.clear();
      await store.close();
    },
  };
}

export interface RedisStoreOptions {
  redisUrl: string;
  /** Prefix of every key (default `fleetgraph:cache:`); tests use their own. */
  keyPrefix?: string;
  onError: (error: unknown, operation: string) => void;
  /**
   * Bytes of epochs and entries held in this process while Redis tracks them (near-cache.ts);
   * 0: every lookup asks Redis.
   */
  nearBytes?: number;
  /** The near cache's observers (metrics, tests) and clock (tests). */
  near?: Pick<NearCacheOptions, 'now' | 'onHit' | 'onInvalidated' | 'onTracking'>;
}

/**
 * An entry in Redis: its epoch (base64url, no newline), a newline, then the body as it is, so that
 * reading a hit is one slice (a body inside a JSON record had to be unescaped on every hit).
 * Entries written by earlier versions (a JSON record) are still read.
 */
export function encodeEntry(entry: CachedEntry): string {
  return `${entry.epoch}\n${entry.body}`;
}

export function decodeEntry(raw: string): CachedEntry {
  if (raw.startsWith('{')) return JSON.parse(raw) as CachedEntry;
  const newline = raw.indexOf('\n');
  if (newline < 0) throw new Error('unreadable query cache entry');
  return { epoch: raw.slice(0, newline), body: raw.slice(newline + 1) };
}

export function redisCacheStore(options: RedisStoreOptions): CacheStore {
  const prefix = options.keyPrefix ?? 'fleetgraph:cache:';
  // While Redis is away lookups find nothing (the request bypasses the cache) and writes are skipped.
  const { redis, attempt, close } = optionalRedis(options.redisUrl, options.onError, {
    commandTimeoutMs: 300,
  });
  const settingsKey = (tokenId: string) => `${prefix}settings:${tokenId}`;
  const epochKey = (scopeKey: string) => `${prefix}epoch:${scopeKey}`;
  const entryKey = (scopeKey: string, key: string) => `${prefix}entry:${scopeKey}:${key}`;
  const near = options.nearBytes
    ? createNearCache(redis, {
        maxBytes: options.nearBytes,
        connectionName: `${prefix}near-cache`,
        onError: options.onError,
        ...options.near,
      })
    : undefined;
  // A scope's epoch and an entry (null: none): from the near cache, else one MGET.
  const read = near
    ? near.read
    : (epoch: string, entry: string): Promise<(string | null)[]> => redis.mget(epoch, entry);
  /** A new epoch for the scope (softFlush, flush): its entries stored before no longer count. */
  const renewEpoch = async (scopeKey: string) => {
    near?.drop([epochKey(scopeKey)]);
    await redis.set(epochKey(scopeKey), newEpoch(), 'PX', EPOCH_TTL_MS);
  };
  return {
    available: () => redis.status === 'ready',
    getSettings: (tokenId) =>
      attempt('getSettings', undefined, async () => {
        const raw = await redis.get(settingsKey(tokenId));
        return raw ? (JSON.parse(raw) as CacheSettings) : undefined;
      }),
    saveSettings: (tokenId, value, ttlMs) =>
      attempt('saveSettings', undefined, async () => {
        await redis.set(settingsKey(tokenId), JSON.stringify(value), 'PX', Math.max(1, Math.ceil(ttlMs)));
      }),
    lookup: (scopeKey, key) =>
      attempt('lookup', { epoch: '', entry: undefined }, async () => {
        const [stored, raw] = await read(epochKey(scopeKey), entryKey(scopeKey, key));
        let epoch = stored;
        if (epoch === null) {
          // First use of the scope, or its record was evicted: a fresh epoch (another gateway
          // may set one at the same moment; the first write wins).
          const fresh = newEpoch();
          epoch = (await redis.set(epochKey(scopeKey), fresh, 'PX', EPOCH_TTL_MS, 'NX'))
            ? fresh
            : await redis.get(epochKey(scopeKey));
        }
        return { epoch: epoch ?? '', entry: raw ? decodeEntry(raw) : undefined };
      }),
    store: (scopeKey, key, entry, ttlMs) =>
      attempt('store', undefined, async () => {
        if (entry.body.length > MAX_ENTRY_BYTES) return;
        near?.drop([entryKey(scopeKey, key)]);
        await redis.set(entryKey(scopeKey, key), encodeEntry(entry), 'PX', Math.max(1, Math.ceil(ttlMs)));
      }),
    touch: (scopeKey, key, ttlMs) =>
      // A held copy keeps the earlier expiry it was read with: it is read again sooner, never served later.
      attempt('touch', undefined, async () => {
        await redis.pexpire(entryKey(scopeKey, key), Math.max(1, Math.ceil(ttlMs)));
      }),
    bumpEpoch: (scopeKey) => attempt('softFlush', undefined, () => renewEpoch(scopeKey)),
    flush: (scopeKey) =>
      attempt('flush', undefined, async () => {
        await renewEpoch(scopeKey);
        const pattern = `${entryKey(scopeKey, '')}*`;
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
          if (keys.length > 0) await redis.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      }),
    async close() {
      await near?.close();
      await close();
    },
  };
}
