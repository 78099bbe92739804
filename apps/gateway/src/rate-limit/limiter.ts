/**
 * Token buckets per key, for the per-login request rate and the cost budgets (budget/): a request
 * takes one token, or as many as its cost.
 *
 * Per-login rate limiting: a token bucket per signed-in user.
 * - Key: the verified token's user id (`uid`), not its `jti`: every login of the same user (and
 *   every refreshed token) shares one budget, so signing in again or refreshing does not reset it,
 *   and one user cannot slow down another.
 * - Bucket: holds up to `burst` requests and refills at `perMinute / 60` per second; a request
 *   takes one. Empty: refused with the time until one request is available again.
 * - Redis (REDIS_URL): one hash per user (`<prefix><uid>` = tokens, last refill time), updated
 *   atomically by a Lua script and expiring once it would be full again, so idle users cost
 *   nothing; every gateway instance shares the budget. A call leases a few tokens to the instance
 *   (at most `leaseMax`, an eighth of the bucket, for `leaseMs`), so a busy user costs one Redis
 *   round trip per lease instead of one per request; see `redisLimiter`. A Redis error or outage allows the
 *   request (logged at most once per 30 s): the limiter protects capacity, it must not take
 *   the graph down with it.
 * - Memory (no REDIS_URL): the same bucket in an LRU of at most 100 000 users (one process).
 */
import { LRUCache } from 'lru-cache';
import {
  memoryLimiter,
  optionalRedis,
  type LimiterOptions,
  type RateDecision,
  type RateLimiter,
} from '@fleetgraph/service-kit';

export {
  memoryLimiter,
  takeFromBucket,
  type LimiterOptions,
  type RateDecision,
  type RateLimiter,
} from '@fleetgraph/service-kit';

const LEASE_SHARE = 8;
// Both scripts: ARGV[1..4] = burst, tokens per ms, now (ms), expiry (ms); the bucket read, refilled
// up to now, and written back with its expiry.
const READ_BUCKET = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
local function refill()
  if now > at then
    tokens = math.min(burst, tokens + (now - at) * rate)
    at = now
  end
end
local function write()
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
`;

// KEYS[1] bucket; ARGV: burst, tokens per ms, now (ms), expiry (ms), largest lease, tokens
// returned, amount asked. Refills, takes back the unused rest of this instance's expired lease,
// then leases clamp(floor(tokens / LEASE_SHARE), amount, amount + largest lease - 1) tokens: the
// amount for the request that asked, the rest for the instance's next requests. Near an empty
// bucket a lease is just the amount, so every request there is decided here, exactly.
// Returns { allowed (0|1), retry after (ms), remaining (whole tokens), tokens leased }.
const TAKE_SCRIPT = `${READ_BUCKET}
local largest = tonumber(ARGV[5])
local returned = tonumber(ARGV[6])
local amount = tonumber(ARGV[7])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
refill()
tokens = math.min(burst, tokens + returned)
local allowed = 0
local wait = 0
local lease = 0
if tokens >= amount then
  lease = math.max(amount, math.min(largest + amount - 1, math.floor(tokens / ${LEASE_SHARE})))
  tokens = tokens - lease
  allowed = 1
else
  wait = math.ceil((amount - tokens) / rate)
end
write()
return { allowed, wait, math.floor(tokens), lease }
`;

// KEYS[1] bucket; ARGV[5] tokens returned. Gives back the unspent tokens of a lease (an instance
// closing), never above burst; a bucket that expired meanwhile is full already.
const RETURN_SCRIPT = `${READ_BUCKET}
if tokens == nil or at == nil then return 0 end
refill()
tokens = math.min(burst, tokens + tonumber(ARGV[5]))
write()
return 1
`;

export interface RedisLimiterOptions extends LimiterOptions {
  redisUrl: string;
  /** Key prefix (default `fleetgraph:ratelimit:`). */
  keyPrefix?: string;
  /**
   * Most tokens one Redis call may lease to this instance (default 16; 1 = every request asks
   * Redis). A lease is at most an eighth of what the bucket holds, so it shrinks to one token as
   * the bucket empties.
   */
  leaseMax?: number;
  /** How long an instance may spend a lease before it returns the rest (default 1000 ms). */
  leaseMs?: number;
  onError: (error: unknown) => void;
}

type ReturnCommand = (
  key: string,
  burst: number,
  rate: string,
  now: number,
  ttl: number,
  returned: number,
) => Promise<number>;

type TakeCommand = (
  key: string,
  burst: number,
  rate: string,
  now: number,
  ttl: number,
  largest: number,
  returned: number,
  amount: number,
) => Promise<number[]>;

/** Tokens this instance leased for one user, spent without asking Redis until `until`. */
interface Lease {
  tokens: number;
  until: number;
  /** What the shared bucket held after the lease was taken (for `remaining`). */
  shared: number;
  /** The Redis call in flight for this user: concurrent requests wait for it instead of each sending one. */
  pending?: Promise<RateDecision> | undefined;
}

/**
 * The shared bucket in Redis, spent through leases: a call takes the request's token and up to
 * `leaseMax - 1` more, which this instance hands out locally until they run out or `leaseMs`
 * passes; the unused rest goes back with the next call. Every token still comes out of the one
 * shared bucket, so the instances together never allow more than the bucket does; the price is
 * that a lease held by one instance is not available to another for at most `leaseMs`, and only
 * while the bucket is full enough for leases above one token (an eighth of it at most per call).
 */
export function redisLimiter(options: RedisLimiterOptions): RateLimiter {
  const burst = options.burst ?? options.perMinute;
  const perMs = options.perMinute / 60_000;
  const now = options.now ?? Date.now;
  const prefix = options.keyPrefix ?? 'fleetgraph:ratelimit:';
  const leaseMax = Math.max(1, Math.floor(options.leaseMax ?? 16));
  const leaseMs = options.leaseMs ?? 1_000;
  // Time for an empty bucket to fill up: after that the key carries no information.
  const expiryMs = Math.ceil(burst / perMs) + 1_000;
  // While Redis is away every request is allowed: the limiter protects capacity, it must not take
  // the graph down with it.
  const { redis, attempt, close } = optionalRedis(options.redisUrl, (error) => options.onError(error));
  redis.defineCommand('fleetgraphTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  redis.defineCommand('fleetgraphReturnTokens', { numberOfKeys: 1, lua: RETURN_SCRIPT });
  const command = (redis as unknown as { fleetgraphTakeToken: TakeCommand }).fleetgraphTakeToken.bind(redis);
  const giveBack = (
    redis as unknown as { fleetgraphReturnTokens: ReturnCommand }
  ).fleetgraphReturnTokens.bind(redis);
  const allow = { allowed: true, retryAfterMs: 0, remaining: 0 };
  const leases = new LRUCache<string, Lease>({ max: 100_000 });

  const spend = (lease: Lease, amount: number): RateDecision => {
    lease.tokens -= amount;
    return { allowed: true, retryAfterMs: 0, remaining: lease.tokens + lease.shared };
  };

  const lease = async (
    key: string,
    held: Lease | undefined,
    at: number,
    amount: number,
  ): Promise<RateDecision> => {
    const returned = held ? held.tokens : 0;
    let fresh: Lease | undefined;
    const decision = await attempt('take', allow, async () => {
      const [allowed, wait, shared, leased] = await command(
        prefix + key,
        burst,
        String(perMs),
        at,
        expiryMs,
        leaseMax,
        returned,
        amount,
      );
      if (allowed !== 1) return { allowed: false, retryAfterMs: wait ?? 0, remaining: 0 };
      fresh = { tokens: (leased ?? amount) - amount, until: at + leaseMs, shared: shared ?? 0 };
      return { allowed: true, retryAfterMs: 0, remaining: fresh.tokens + fresh.shared };
    });
    if (fresh) leases.set(key, fresh);
    else leases.delete(key);
    return decision;
  };

  const take = (key: string, amount = 1): Promise<RateDecision> => {
    const held = leases.get(key);
    if (held?.pending) return held.pending.then((first) => (first.allowed ? take(key, amount) : first));
    const at = now();
    if (held && at < held.until && held.tokens >= amount) return Promise.resolve(spend(held, amount));
    const asking: Lease = { tokens: 0, until: 0, shared: 0 };
    asking.pending = lease(key, held, at, amount);
    leases.set(key, asking);
    return asking.pending;
  };

  /** Into this instance's lease when it holds one (returned with it), else back to the bucket. */
  const refund = async (key: string, amount: number): Promise<void> => {
    const held = leases.get(key);
    if (held && !held.pending && now() < held.until) {
      held.tokens += amount;
      return;
    }
    await attempt('refund', undefined, async () => {
      await giveBack(prefix + key, burst, String(perMs), now(), expiryMs, amount);
    });
  };

  /**
   * Closing returns what this instance still holds: a gateway that stops (a deployment, a
   * short-lived test stack) must not take its leases with it (up to leaseMax - 1 tokens per user).
   */
  const returnLeases = async () => {
    const held = [...leases.entries()].filter(([, lease]) => !lease.pending && lease.tokens >= 1);
    leases.clear();
    if (held.length === 0) return;
    await attempt('return leases', undefined, async () => {
      const at = now();
      await Promise.all(
        held.map(([key, lease]) => giveBack(prefix + key, burst, String(perMs), at, expiryMs, lease.tokens)),
      );
    });
  };

  return {
    perMinute: options.perMinute,
    burst,
    take,
    refund,
    async close() {
      await returnLeases();
      await close();
    },
  };
}

export function createRateLimiter(
  options: LimiterOptions & {
    redisUrl?: string | undefined;
    keyPrefix?: string;
    leaseMax?: number;
    onError: (error: unknown) => void;
  },
): RateLimiter | undefined {
  if (options.perMinute <= 0) return undefined;
  return options.redisUrl ? redisLimiter({ ...options, redisUrl: options.redisUrl }) : memoryLimiter(options);
}
