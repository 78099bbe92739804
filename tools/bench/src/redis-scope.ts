/**
 * A benchmark's own corner of a shared Redis: its gateways keep their query cache and rate-limit
 * buckets under a prefix of this run, never the production `fleetgraph:cache:` and
 * `fleetgraph:ratelimit:` keys, and the run deletes them when it ends.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** This run's prefix; every key a benchmark gateway writes starts with it. */
export const BENCH_REDIS_PREFIX = `fleetgraph:bench:${randomUUID()}:`;

/** Gateway environment placing its Redis keys under this run's prefix (`name` tells gateways apart). */
export function benchRedisEnv(name = 'gateway'): Record<string, string> {
  return {
    QUERY_CACHE_PREFIX: `${BENCH_REDIS_PREFIX}${name}:cache:`,
    RATE_LIMIT_PREFIX: `${BENCH_REDIS_PREFIX}${name}:ratelimit:`,
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
