/**
 * Automatic persisted queries (the Apollo APQ protocol as Apollo Server implements it): a client
 * sends `extensions.persistedQuery.sha256Hash` alone; on PERSISTED_QUERY_NOT_FOUND it sends the
 * query with the hash once, which registers it; later requests (POST, or GET, which CDNs can
 * cache) carry only the hash.
 * - The store is explicitly bounded: Redis when REDIS_URL is set (every entry expires after
 *   APQ_TTL_SECONDS, keys under `fleetgraph:apq:`), else an in-memory LRU of APQ_CACHE_MAX_BYTES
 *   bytes with the same ttl. Only queries that parse, validate and pass the query limits are
 *   registered (Apollo Server stores them after the operation resolved), and a query longer than
 *   MAX_ENTRY_CHARS is never stored.
 * - A Redis outage is a cache miss, never an error: lookups answer "not found" (the client
 *   resends the full query), writes are skipped, both logged at most once per 30 s.
 * - A query whose hash does not match is refused with PERSISTED_QUERY_HASH_MISMATCH (Apollo
 *   Server answers it without a code, which would surface as an internal error).
 */
import { createHash } from 'node:crypto';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { LRUCache } from 'lru-cache';
import { optionalRedis } from '@fleetgraph/service-kit';

/** The part of Apollo's KeyValueCache interface that persisted queries use. */
export interface PersistedQueryStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
  close(): Promise<void>;
}

/** The Redis store, which can also say when its connection is up (tests start from there). */
export type RedisPersistedQueryStore = PersistedQueryStore & { ready(): Promise<void> };

/** Longest query text kept (characters); longer ones still run, they are just not persisted. */
export const MAX_ENTRY_CHARS = 100_000;

export const PERSISTED_QUERY_HASH_MISMATCH = 'PERSISTED_QUERY_HASH_MISMATCH';

export function memoryStore(maxBytes: number, ttlSeconds: number): PersistedQueryStore {
  const cache = new LRUCache<string, string>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) => Math.max(1, (value.length + key.length) * 2),
    ttl: ttlSeconds * 1000,
  });
  return {
    async get(key) {
      return cache.get(key);
    },
    async set(key, value, options) {
      if (value.length > MAX_ENTRY_CHARS) return;
      const ttl = options?.ttl ?? ttlSeconds;
      cache.set(key, value, { ttl: ttl * 1000 });
    },
    async delete(key) {
      return cache.delete(key);
    },
    async close() {
      cache.clear();
    },
  };
}

export interface RedisStoreOptions {
  redisUrl: string;
  ttlSeconds: number;
  keyPrefix?: string;
  onError: (error: unknown, operation: string) => void;
}

export function redisStore(options: RedisStoreOptions): RedisPersistedQueryStore {
  const prefix = options.keyPrefix ?? 'fleetgraph:apq:';
  // While Redis is away a lookup is a miss (the client sends its query again) and a write is skipped.
  const { attempt, ready, close } = optionalRedis(options.redisUrl, options.onError);
  return {
    get: (key) => attempt('get', undefined, async (redis) => (await redis.get(prefix + key)) ?? undefined),
    async set(key, value, setOptions) {
      if (value.length > MAX_ENTRY_CHARS) return;
      const ttl = Math.max(1, Math.ceil(setOptions?.ttl ?? options.ttlSeconds));
      await attempt('set', undefined, async (redis) => {
        await redis.set(prefix + key, value, 'EX', ttl);
      });
    },
    delete: (key) => attempt('delete', false, async (redis) => (await redis.del(prefix + key)) > 0),
    ready,
    close,
  };
}

export interface PersistedQueriesSetup {
  /** For ApolloServer's `persistedQueries` option. */
  options: false | { cache: PersistedQueryStore; ttl: number };
  plugin: ApolloServerPlugin<any>;
  close(): Promise<void>;
}

export function persistedQueries(config: {
  enabled: boolean;
  redisUrl: string | undefined;
  ttlSeconds: number;
  maxBytes: number;
  onError: (error: unknown, operation: string) => void;
  /** A store of the caller's, which the caller closes (tests); default Redis with redisUrl, else memory. */
  store?: PersistedQueryStore;
}): PersistedQueriesSetup {
  if (!config.enabled) return { options: false, plugin: {}, close: async () => {} };
  const store =
    config.store ??
    (config.redisUrl
      ? redisStore({ redisUrl: config.redisUrl, ttlSeconds: config.ttlSeconds, onError: config.onError })
      : memoryStore(config.maxBytes, config.ttlSeconds));
  return {
    options: { cache: store, ttl: config.ttlSeconds },
    plugin: hashMismatchPlugin(),
    close: config.store ? async () => {} : () => store.close(),
  };
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Apollo Server refuses a query whose sha256 differs from the hash sent with it, but with an
 * error that has no code (formatError would turn it into INTERNAL_SERVER_ERROR). This plugin
 * recognises that request and answers it with a clear error instead.
 */
export function hashMismatchPlugin<C extends BaseContext = BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ request }) {
      const persisted = request.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
      if (!persisted || typeof request.query !== 'string') return;
      const sent = persisted.sha256Hash;
      if (typeof sent === 'string' && sent === sha256Hex(request.query)) return;
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          response.http.status = 400;
          response.body.singleResult = {
            errors: [
              {
                message:
                  'extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent with it: send the hex SHA-256 of the exact query text.',
                extensions: { code: PERSISTED_QUERY_HASH_MISMATCH },
              },
            ],
          };
        },
      };
    },
  };
}
