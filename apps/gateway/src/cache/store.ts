/**
 * Where the per-login query cache keeps its data: Redis when REDIS_URL is set (shared by every
 * gateway instance), else a bounded in-memory LRU. Three kinds of records:
 * - settings of a login (by token id), expiring with the access token;
 * - the epoch of a scope: a counter that softFlush and flush increase; an entry stored under an
 *   older epoch is ignored (no clock comparison, so several gateways' clocks need not agree);
 * - entries: a serialized response with the epoch it was stored under, expiring after its ttl.
 * A store never throws: an unavailable Redis reads as "nothing cached" and writes are skipped,
 * so the request is answered by the subgraphs (bypass).
 */
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { CacheSettings } from './settings';

export interface CachedEntry {
  epoch: number;
  body: string;
}

export interface CacheStore {
  /** Whether the store can answer now (false: Redis unavailable, the request bypasses). */
  available(): boolean;
  getSettings(tokenId: string): Promise<CacheSettings | undefined>;
  saveSettings(tokenId: string, settings: CacheSettings, ttlMs: number): Promise<void>;
  /** The scope's current epoch and the entry under `key` (one round trip). */
  lookup(scopeKey: string, key: string): Promise<{ epoch: number; entry: CachedEntry | undefined }>;
  store(scopeKey: string, key: string, entry: CachedEntry, ttlMs: number): Promise<void>;
  /** Restarts an entry's time to live (extendTtl). */
  touch(scopeKey: string, key: string, ttlMs: number): Promise<void>;
  /** Ignores every entry of the scope stored so far (softFlush). */
  bumpEpoch(scopeKey: string): Promise<void>;
  /** Removes every entry of the scope (flush); also bumps the epoch against in-flight stores. */
  flush(scopeKey: string): Promise<void>;
  close(): Promise<void>;
}

/** Responses larger than this are not cached (they still run). */
export const MAX_ENTRY_BYTES = 1024 * 1024;

interface Timed<T> {
  value: T;
  expiresAt: number;
}

export interface MemoryStoreOptions {
  maxBytes: number;
  /** Clock in ms (tests move it). */
  now?: () => number;
}

export function memoryCacheStore(options: MemoryStoreOptions): CacheStore {
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Timed<CachedEntry>>({
    maxSize: options.maxBytes,
    sizeCalculation: (value, key) => Math.max(1, (value.value.body.length + key.length) * 2),
  });
  const settings = new LRUCache<string, Timed<CacheSettings>>({ max: 100_000 });
  const epochs = new LRUCache<string, number>({ max: 100_000 });
  const live = <T>(record: Timed<T> | undefined): T | undefined =>
    record && record.expiresAt > now() ? record.value : undefined;
  const entryKey = (scopeKey: string, key: string) => `${scopeKey}\u0000${key}`;
  return {
    available: () => true,
    async getSettings(tokenId) {
      return live(settings.get(tokenId));
    },
    async saveSettings(tokenId, value, ttlMs) {
      settings.set(tokenId, { value, expiresAt: now() + ttlMs });
    },
    async lookup(scopeKey, key) {
      return { epoch: epochs.get(scopeKey) ?? 0, entry: live(entries.get(entryKey(scopeKey, key))) };
    },
    async store(scopeKey, key, entry, ttlMs) {
      if (entry.body.length > MAX_ENTRY_BYTES) return;
      entries.set(entryKey(scopeKey, key), { value: entry, expiresAt: now() + ttlMs });
    },
    async touch(scopeKey, key, ttlMs) {
      const record = entries.get(entryKey(scopeKey, key));
      if (record && record.expiresAt > now()) record.expiresAt = now() + ttlMs;
    },
    async bumpEpoch(scopeKey) {
      epochs.set(scopeKey, (epochs.get(scopeKey) ?? 0) + 1);
    },
    async flush(scopeKey) {
      epochs.set(scopeKey, (epochs.get(scopeKey) ?? 0) + 1);
      const prefix = `${scopeKey}\u0000`;
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
    async close() {
      entries.clear();
      settings.clear();
      epochs.clear();
    },
  };
}

export interface RedisStoreOptions {
  redisUrl: string;
  /** Prefix of every key (default `fleetgraph:cache:`); tests use their own. */
  keyPrefix?: string;
  onError: (error: unknown, operation: string) => void;
}

export function redisCacheStore(options: RedisStoreOptions): CacheStore {
  const prefix = options.keyPrefix ?? 'fleetgraph:cache:';
  // Short timeouts and no offline queue: while Redis is away a command fails at once or within
  // a fraction of a second, and the request is answered by the subgraphs.
  const redis = new Redis(options.redisUrl, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 300,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
  redis.on('error', () => {}); // reported through the commands that fail
  let lastReport = 0;
  const report = (error: unknown, operation: string) => {
    if (Date.now() - lastReport < 30_000) return;
    lastReport = Date.now();
    options.onError(error, operation);
  };
  async function attempt<T>(operation: string, fallback: T, run: () => Promise<T>): Promise<T> {
    if (redis.status !== 'ready') {
      report(new Error(`Redis is ${redis.status}`), operation);
      return fallback;
    }
    try {
      return await run();
    } catch (error) {
      report(error, operation);
      return fallback;
    }
  }
  const settingsKey = (tokenId: string) => `${prefix}settings:${tokenId}`;
  const epochKey = (scopeKey: string) => `${prefix}epoch:${scopeKey}`;
  const entryKey = (scopeKey: string, key: string) => `${prefix}entry:${scopeKey}:${key}`;
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
      attempt('lookup', { epoch: 0, entry: undefined }, async () => {
        const [epoch, raw] = await redis.mget(epochKey(scopeKey), entryKey(scopeKey, key));
        return { epoch: Number(epoch ?? 0), entry: raw ? (JSON.parse(raw) as CachedEntry) : undefined };
      }),
    store: (scopeKey, key, entry, ttlMs) =>
      attempt('store', undefined, async () => {
        if (entry.body.length > MAX_ENTRY_BYTES) return;
        await redis.set(entryKey(scopeKey, key), JSON.stringify(entry), 'PX', Math.max(1, Math.ceil(ttlMs)));
      }),
    touch: (scopeKey, key, ttlMs) =>
      attempt('touch', undefined, async () => {
        await redis.pexpire(entryKey(scopeKey, key), Math.max(1, Math.ceil(ttlMs)));
      }),
    bumpEpoch: (scopeKey) =>
      attempt('softFlush', undefined, async () => {
        await redis.incr(epochKey(scopeKey));
      }),
    flush: (scopeKey) =>
      attempt('flush', undefined, async () => {
        await redis.incr(epochKey(scopeKey));
        const pattern = `${entryKey(scopeKey, '')}*`;
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
          if (keys.length > 0) await redis.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      }),
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
