/**
 * The shared revocation list of access-token ids (jti), written by the SSO and read by the
 * gateway and subgraphs (VerifierOptions.isRevoked).
 * - with redisUrl: one Redis key per jti (`<prefix><jti>`) expiring when the token does, so the
 *   list never outgrows the live tokens; every instance sees a revocation at once;
 * - without: an in-memory map (one process only: tests and the one-process platform start);
 * - isRevoked never throws: on a Redis error it logs and answers false (verification stays up;
 *   the token still expires on time), while revoke() does throw, so the SSO knows it failed;
 * - cacheMs (default DEFAULT_REVOCATION_CACHE_MS, 2 s) keeps isRevoked answers for a few seconds per jti, so a busy gateway
 *   asks Redis at most once per token per interval; a revocation is seen within that delay.
 */
import { optionalRedis } from '@fleetgraph/service-kit';
import { LRUCache } from 'lru-cache';
import { createDatabaseRevocationList } from './revocation-database';

export interface RevocationList {
  /** Records a token id as revoked until `exp` (epoch seconds). */
  revoke(jti: string, exp: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface RevocationListOptions {
  /**
   * The database holding the SSO's published revocations (revocation-database.ts): loaded at
   * start and followed by LISTEN/NOTIFY, so revocations survive restarts and reach every process
   * sharing the database, with or without Redis. The default of every verifier that has one.
   */
  databaseUrl?: string;
  /** redis:// address; absent (and no databaseUrl): in-memory (single process). */
  redisUrl?: string;
  /** Redis key prefix (default DEFAULT_REVOCATION_PREFIX, `fleetgraph:revoked:`). */
  keyPrefix?: string;
  /** How long an isRevoked answer may be reused, in ms (default DEFAULT_REVOCATION_CACHE_MS; 0: always ask). */
  cacheMs?: number;
  /** Where Redis errors are reported (default console.error). */
  onError?: (error: unknown, operation: string) => void;
  /** The clock, in epoch ms (default Date.now; tests pass their own). */
  now?: () => number;
}

/**
 * Prefix of the Redis keys of the revocation list (REVOCATION_PREFIX of the SSO, the gateway and
 * the subgraphs: all of one platform must agree on it).
 */
export const DEFAULT_REVOCATION_PREFIX = 'fleetgraph:revoked:';

/** The one default of every verifier: a revocation is honoured everywhere within 2 s. */
export const DEFAULT_REVOCATION_CACHE_MS = 2_000;

type Clock = () => number;

function remainingSeconds(exp: number, now: Clock): number {
  return Math.ceil(exp - now() / 1000);
}

function withCache(list: RevocationList, cacheMs: number, now: Clock): RevocationList {
  if (cacheMs <= 0) return list;
  // Answers stamped with the injected clock (lru-cache's own ttl reads the real one).
  const cache = new LRUCache<string, { answer: boolean; at: number }>({ max: 100_000 });
  return {
    async revoke(jti, exp) {
      await list.revoke(jti, exp);
      // A token that has already expired is not stored: nothing to remember either.
      if (remainingSeconds(exp, now) > 0) cache.set(jti, { answer: true, at: now() });
      else cache.delete(jti);
    },
    async isRevoked(jti) {
      const known = cache.get(jti);
      if (known !== undefined && now() - known.at < cacheMs) return known.answer;
      const answer = await list.isRevoked(jti);
      cache.set(jti, { answer, at: now() });
      return answer;
    },
    close: () => list.close(),
  };
}

function memoryList(now: Clock): RevocationList {
  const revoked = new Map<string, number>();
  let lastSweep = now();
  function sweep() {
    if (now() - lastSweep < 60_000) return;
    lastSweep = now();
    for (const [jti, exp] of revoked) if (remainingSeconds(exp, now) <= 0) revoked.delete(jti);
  }
  return {
    async revoke(jti, exp) {
      sweep();
      if (remainingSeconds(exp, now) > 0) revoked.set(jti, exp);
    },
    async isRevoked(jti) {
      sweep();
      const exp = revoked.get(jti);
      return exp !== undefined && remainingSeconds(exp, now) > 0;
    },
    async close() {
      revoked.clear();
    },
  };
}

function redisList(
  url: string,
  prefix: string,
  onError: (error: unknown, operation: string) => void,
  now: Clock,
): RevocationList {
  // The platform's guarded client (short timeouts; no command sent while Redis is known to be
  // away): a slow or absent Redis must not stall token verification.
  const guarded = optionalRedis(url, onError, { commandTimeoutMs: 1_000 });
  return {
    async revoke(jti, exp) {
      const ttl = remainingSeconds(exp, now);
      if (ttl <= 0) return;
      await guarded.redis.set(`${prefix}${jti}`, '1', 'EX', ttl);
    },
    isRevoked: (jti) =>
      guarded.attempt('isRevoked', false, async (redis) => (await redis.exists(`${prefix}${jti}`)) === 1),
    close: () => guarded.close(),
  };
}

/** Revoked in either list (the database's and Redis, for layouts with several databases). */
function either(first: RevocationList, second: RevocationList): RevocationList {
  return {
    async revoke(jti, exp) {
      await Promise.all([first.revoke(jti, exp), second.revoke(jti, exp)]);
    },
    async isRevoked(jti) {
      return (await first.isRevoked(jti)) || (await second.isRevoked(jti));
    },
    async close() {
      await Promise.all([first.close(), second.close()]);
    },
  };
}

export function createRevocationList(options: RevocationListOptions = {}): RevocationList {
  const onError =
    options.onError ?? ((error, operation) => console.error(`revocation list ${operation} failed:`, error));
  const now = options.now ?? Date.now;
  if (options.databaseUrl) {
    const database = createDatabaseRevocationList({ databaseUrl: options.databaseUrl, now, onError });
    if (!options.redisUrl) return database;
    return either(database, createRevocationList({ ...options, databaseUrl: undefined }));
  }
  const list = options.redisUrl
    ? redisList(options.redisUrl, options.keyPrefix ?? DEFAULT_REVOCATION_PREFIX, onError, now)
    : memoryList(now);
  return withCache(list, options.cacheMs ?? DEFAULT_REVOCATION_CACHE_MS, now);
}
