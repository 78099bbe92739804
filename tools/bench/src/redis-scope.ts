/**
 * A benchmark's own corner of a shared Redis: its services keep the query cache, the rate-limit
 * buckets and the revocation list under a prefix of this run, never the production
 * `fleetgraph:cache:`, `fleetgraph:ratelimit:` and `fleetgraph:revoked:` keys, and the run deletes
 * them when it ends.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** This run's prefix; every key a benchmark gateway writes starts with it. */
export const BENCH_REDIS_PREFIX = `fleetgraph:bench:${randomUUID()}:`;

/**
 * Environment placing a platform's Redis keys under this run's prefix. `name` tells gateways apart
 * (each its own cache and buckets); the revocation list is one for the run, as the SSO that writes
 * it and every gateway that reads it must agree on its prefix.
 */
export function benchRedisEnv(name = 'gateway'): Record<string, string> {
  return {
    QUERY_CACHE_PREFIX: `${BENCH_REDIS_PREFIX}${name}:cache:`,
    RATE_LIMIT_PREFIX: `${BENCH_REDIS_PREFIX}${name}:ratelimit:`,
    REVOCATION_PREFIX: `${BENCH_REDIS_PREFIX}revoked:`,
  };
}

/** Deletes what this run's gateways stored in REDIS_URL (nothing to do without one). */
export async function deleteBenchRedisKeys(redisUrl = process.env.REDIS_URL): Promise<void> {
  if (!redisUrl) return;
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${BENCH_REDIS_PREFIX}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
