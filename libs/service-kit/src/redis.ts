/**
 * A Redis connection for something that only accelerates or shares state (query cache, persisted
 * queries, rate limits), so that Redis being away never fails or slows a request:
 * - short timeouts (a command fails within about half a second), one retry at most;
 * - once Redis has been reached or has failed, a command is sent only while it is connected:
 *   during an outage each request goes on at once with the fallback instead of a timeout;
 * - `attempt(operation, fallback, run)` answers `run()` or, on any failure, the fallback;
 *   failures are reported at most once per 30 s (a logged line, not a flood);
 * - `ready()` resolves once the connection is ready (for a caller that must not start degraded).
 */
import { Redis } from 'ioredis';

export interface OptionalRedis {
  redis: Redis;
  attempt<T>(operation: string, fallback: T, run: (redis: Redis) => Promise<T>): Promise<T>;
  /** Resolves when the connection is ready: at once if it is, else on its next `ready` event. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function optionalRedis(
  url: string,
  onError: (error: unknown, operation: string) => void,
  options: { commandTimeoutMs?: number } = {},
): OptionalRedis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: options.commandTimeoutMs ?? 500,
  });
  let settled = false;
  redis.on('ready', () => (settled = true));
  redis.on('error', () => (settled = true)); // reported through the commands that fail
  let lastReport = 0;
  const report = (error: unknown, operation: string) => {
    if (Date.now() - lastReport < 30_000) return;
    lastReport = Date.now();
    onError(error, operation);
  };
  return {
    redis,
    async attempt(operation, fallback, run) {
      if (settled && redis.status !== 'ready') {
        report(new Error(`Redis is ${redis.status}`), operation);
        return fallback;
      }
      try {
        return await run(redis);
      } catch (error) {
        report(error, operation);
        return fallback;
      }
    },
    ready: () =>
      redis.status === 'ready'
        ? Promise.resolve()
        : new Promise((resolve) => redis.once('ready', () => resolve())),
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
