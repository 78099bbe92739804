/**
 * A benchmark's own corner of a shared Redis: its services keep the query cache, the rate-limit
 * buckets and the revocation list under a prefix of this run, never the production
 * `fleetgraph:cache:`, `fleetgraph:ratelimit:` and `fleetgraph:revoked:` keys, and the run deletes
 * them when it ends.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULT_REVOCATION_PREFIX } from '@fleetgraph/auth';
import { deleteRedisKeys } from '@fleetgraph/testing';

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
    COST_BUDGET_PREFIX: `${BENCH_REDIS_PREFIX}${name}:budget:`,
    REVOCATION_PREFIX: `${BENCH_REDIS_PREFIX}revoked:`,
  };
}

/** Deletes what this run's gateways stored in REDIS_URL (nothing to do without one). */
export async function deleteBenchRedisKeys(redisUrl = process.env.REDIS_URL): Promise<void> {
  if (redisUrl) await deleteRedisKeys(redisUrl, BENCH_REDIS_PREFIX);
}

/**
 * Deletes the production-prefixed revocation keys (`fleetgraph:revoked:<jti>`) of these access
 * tokens: what a baseline checkout older than REVOCATION_PREFIX wrote for the tokens of this run
 * (its own database lists them), so a before/after run leaves nothing in a shared Redis.
 */
export async function deleteRevocationKeysOf(
  jtis: string[],
  redisUrl = process.env.REDIS_URL,
): Promise<number> {
  if (!redisUrl || jtis.length === 0) return 0;
  const redis = new Redis(redisUrl);
  let deleted = 0;
  try {
    for (let i = 0; i < jtis.length; i += 1000)
      deleted += await redis.unlink(
        ...jtis.slice(i, i + 1000).map((jti) => `${DEFAULT_REVOCATION_PREFIX}${jti}`),
      );
  } finally {
    await redis.quit();
  }
  return deleted;
}
