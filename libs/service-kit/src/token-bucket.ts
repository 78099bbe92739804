/**
 * A token bucket per key, in this process's memory: holds up to `burst` tokens and refills at
 * `perMinute / 60` a second; a take of `amount` tokens succeeds only when the bucket holds them.
 * The gateway's shared (Redis) buckets follow the same arithmetic (apps/gateway rate-limit).
 * At most 100 000 keys are kept (least recently used first out).
 */
import { LRUCache } from 'lru-cache';

export interface RateDecision {
  allowed: boolean;
  /** Milliseconds until the amount asked would be allowed (0 when allowed). */
  retryAfterMs: number;
  /** Whole tokens left in the bucket after this take. */
  remaining: number;
}

export interface RateLimiter {
  readonly perMinute: number;
  readonly burst: number;
  /** Takes `amount` tokens (default 1) from the key's bucket, or none when it holds fewer. */
  take(key: string, amount?: number): Promise<RateDecision>;
  /** Puts back tokens taken by a request that was refused further on (never above burst). */
  refund(key: string, amount: number): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  perMinute: number;
  /** Bucket size (default perMinute). */
  burst?: number;
  /** Clock in ms (tests move it). */
  now?: () => number;
}

export interface Bucket {
  tokens: number;
  at: number;
}

/** One step of the bucket: the same arithmetic as the Lua script below. */
export function takeFromBucket(
  bucket: Bucket | undefined,
  now: number,
  burst: number,
  perMs: number,
  amount = 1,
): { bucket: Bucket; decision: RateDecision } {
  let tokens = bucket?.tokens ?? burst;
  let at = bucket?.at ?? now;
  if (now > at) {
    tokens = Math.min(burst, tokens + (now - at) * perMs);
    at = now;
  }
  if (tokens >= amount) {
    tokens -= amount;
    return {
      bucket: { tokens, at },
      decision: { allowed: true, retryAfterMs: 0, remaining: Math.floor(tokens) },
    };
  }
  return {
    bucket: { tokens, at },
    decision: { allowed: false, retryAfterMs: Math.ceil((amount - tokens) / perMs), remaining: 0 },
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
    async take(key, amount = 1) {
      const step = takeFromBucket(buckets.get(key), now(), burst, perMs, amount);
      buckets.set(key, step.bucket);
      return step.decision;
    },
    async refund(key, amount) {
      const bucket = buckets.get(key);
      if (bucket) bucket.tokens = Math.min(burst, bucket.tokens + amount);
    },
    async close() {
      buckets.clear();
    },
  };
}
