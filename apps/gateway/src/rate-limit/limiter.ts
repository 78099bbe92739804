/**
 * Per-login rate limiting: a token bucket per signed-in user.
 * - Key: the verified token's user id (`uid`), not its `jti`: every login of the same user (and
 *   every refreshed token) shares one budget, so signing in again or refreshing does not reset it,
 *   and one user cannot slow down another.
 * - Bucket: holds up to `burst` requests and refills at `perMinute / 60` per second; a request
 *   takes one. Empty: refused with the time until one request is available again.
 * - Redis (REDIS_URL): one hash per user (`<prefix><uid>` = tokens, last refill time), updated
 *   atomically by a Lua script and expiring once it would be full again, so idle users cost
 *   nothing; every gateway instance shares the budget. A Redis error or outage allows the
 *   request (logged at most once per 30 s): the limiter protects capacity, it must not take
 *   the graph down with it.
 * - Memory (no REDIS_URL): the same bucket in an LRU of at most 100 000 users (one process).
 */
import { LRUCache } from 'lru-cache';
import { optionalRedis } from '@fleetgraph/service-kit';

export interface RateDecision {
  allowed: boolean;
  /** Milliseconds until the next request would be allowed (0 when allowed). */
  retryAfterMs: number;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
}

export interface RateLimiter {
  readonly perMinute: number;
  readonly burst: number;
  take(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  perMinute: number;
  /** Bucket size (default perMinute). */
  burst?: number;
  /** Clock in ms (tests move it). */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** One step of the bucket: the same arithmetic as the Lua script below. */
export function takeFromBucket(
  bucket: Bucket | undefined,
  now: number,
  burst: number,
  perMs: number,
): { bucket: Bucket; decision: RateDecision } {
  let tokens = bucket?.tokens ?? burst;
  let at = bucket?.at ?? now;
  if (now > at) {
    tokens = Math.min(burst, tokens + (now - at) * perMs);
    at = now;
  }
  if (tokens >= 1) {
    tokens -= 1;
    return {
      bucket: { tokens, at },
      decision: { allowed: true, retryAfterMs: 0, remaining: Math.floor(tokens) },
    };
  }
  return {
    bucket: { tokens, at },
    decision: { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / perMs), remaining: 0 },
  };
}

export function memoryLimiter(options: LimiterOptions): RateLimiter {
  const burst = options.burst ?? options.perMinute;
  const perMs = options.perMinute / 60_000;
  const now = options.now ?? Date.now;
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  return {
    perMinute: options.perMinute,
    burst,
    async take(key) {
      const step = takeFromBucket(buckets.get(key), now(), burst, perMs);
      buckets.set(key, step.bucket);
      return step.decision;
    },
    async close() {
      buckets.clear();
    },
  };
}

// KEYS[1] bucket; ARGV: burst, tokens per ms, now (ms), expiry (ms).
// Returns { allowed (0|1), retry after (ms), remaining (whole tokens) }.
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate)
  at = now
end
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { allowed, wait, math.floor(tokens) }
`;

export interface RedisLimiterOptions extends LimiterOptions {
  redisUrl: string;
  /** Key prefix (default `fleetgraph:ratelimit:`). */
  keyPrefix?: string;
  onError: (error: unknown) => void;
}

type TakeCommand = (key: string, burst: number, rate: string, now: number, ttl: number) => Promise<number[]>;

export function redisLimiter(options: RedisLimiterOptions): RateLimiter {
  const burst = options.burst ?? options.perMinute;
  const perMs = options.perMinute / 60_000;
  const now = options.now ?? Date.now;
  const prefix = options.keyPrefix ?? 'fleetgraph:ratelimit:';
  // Time for an empty bucket to fill up: after that the key carries no information.
  const expiryMs = Math.ceil(burst / perMs) + 1_000;
  // While Redis is away every request is allowed: the limiter protects capacity, it must not take
  // the graph down with it.
  const { redis, attempt, close } = optionalRedis(options.redisUrl, (error) => options.onError(error));
  redis.defineCommand('fleetgraphTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  const take = (redis as unknown as { fleetgraphTakeToken: TakeCommand }).fleetgraphTakeToken.bind(redis);
  const allow = { allowed: true, retryAfterMs: 0, remaining: 0 };
  return {
    perMinute: options.perMinute,
    burst,
    take: (key) =>
      attempt('take', allow, async () => {
        const [allowed, wait, remaining] = await take(prefix + key, burst, String(perMs), now(), expiryMs);
        return { allowed: allowed === 1, retryAfterMs: wait ?? 0, remaining: remaining ?? 0 };
      }),
    close,
  };
}

export function createRateLimiter(
  options: LimiterOptions & {
    redisUrl?: string | undefined;
    keyPrefix?: string;
    onError: (error: unknown) => void;
  },
): RateLimiter | undefined {
  if (options.perMinute <= 0) return undefined;
  return options.redisUrl ? redisLimiter({ ...options, redisUrl: options.redisUrl }) : memoryLimiter(options);
}
