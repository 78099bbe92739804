import { Redis } from 'ioredis';

/** `prefix` as a SCAN pattern matching itself literally, then anything. */
function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, (char) => `\\${char}`)}*`;
}

/**
 * Deletes every key of the Redis at `redisUrl` whose name starts with `prefix` (SCAN, then UNLINK
 * per batch) and answers how many. What a test stack or a benchmark run stored under its own
 * prefix leaves with it instead of lingering until its expiry. An empty prefix is refused: it
 * would name every key of a shared Redis.
 */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  if (prefix === '') throw new Error('deleteRedisKeys: an empty prefix would delete every key');
  const redis = new Redis(redisUrl);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', prefixPattern(prefix), 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return deleted;
}
