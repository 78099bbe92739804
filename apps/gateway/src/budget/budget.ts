/**
 * Cost budgets: what a request is charged is its estimated work (the cost the query limits
 * measure, from the schema's `@paged` defaults and `@cost` weights), not one unit per request.
 * Two buckets of points refilled every minute, both charged before anything is planned:
 * - the user's (every login and refreshed token of one account share it);
 * - the organization's (every user of one tenant), above the user's, so many users of one
 *   organization together cannot take what other organizations need.
 * A request whose cost either bucket cannot pay is refused (RATE_LIMITED, budget named) and costs
 * nothing: what the first bucket gave is put back. With REDIS_URL the buckets are shared by every
 * gateway instance (rate-limit/limiter.ts, which leases points so a busy user costs one Redis
 * round trip per lease rather than per request).
 */
import { createRateLimiter, type RateDecision, type RateLimiter } from '../rate-limit/limiter';

export type BudgetName = 'user' | 'organization';

/** One bucket's state after a charge, as clients read it (Shopify's throttleStatus). */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface BudgetCharge {
  allowed: boolean;
  /** The points asked. */
  cost: number;
  /** Which budget refused the charge. */
  refusedBy?: BudgetName;
  /** Milliseconds until the refusing budget holds the points asked. */
  retryAfterMs: number;
  user?: ThrottleStatus;
  organization?: ThrottleStatus;
}

export interface CostBudget {
  readonly userPerMinute: number;
  readonly organizationPerMinute: number;
  /**
   * Charges `cost` points to the user's and the organization's buckets, or to neither; without a
   * tenant (an operation the gateway answers alone) to the user's only.
   */
  charge(uid: string, tenant: string | undefined, cost: number): Promise<BudgetCharge>;
  close(): Promise<void>;
}

export interface CostBudgetOptions {
  /** Points per minute per user (0: no user budget). */
  userPerMinute: number;
  /** Points per minute per organization (0: no organization budget). */
  organizationPerMinute: number;
  /** Most points one instance leases from a shared bucket in one round trip. */
  lease: number;
  /** Prefix of the buckets in Redis. */
  prefix: string;
  redisUrl?: string | undefined;
  now?: () => number;
  onError: (error: unknown) => void;
}

function statusOf(limiter: RateLimiter, decision: RateDecision): ThrottleStatus {
  return {
    maximumAvailable: limiter.burst,
    currentlyAvailable: Math.max(0, Math.min(limiter.burst, decision.remaining)),
    restoreRate: Math.round(limiter.perMinute / 60),
  };
}

function bucket(options: CostBudgetOptions, perMinute: number, name: BudgetName): RateLimiter | undefined {
  return createRateLimiter({
    perMinute,
    leaseMax: options.lease,
    keyPrefix: `${options.prefix}${name}:`,
    redisUrl: options.redisUrl,
    onError: options.onError,
    ...(options.now ? { now: options.now } : {}),
  });
}

export function createCostBudget(options: CostBudgetOptions): CostBudget | undefined {
  const users = bucket(options, options.userPerMinute, 'user');
  const organizations = bucket(options, options.organizationPerMinute, 'organization');
  if (!users && !organizations) return undefined;

  async function charge(uid: string, tenant: string | undefined, cost: number): Promise<BudgetCharge> {
    const result: BudgetCharge = { allowed: true, cost, retryAfterMs: 0 };
    if (users) {
      const decision = await users.take(uid, cost);
      result.user = statusOf(users, decision);
      if (!decision.allowed)
        return { ...result, allowed: false, refusedBy: 'user', retryAfterMs: decision.retryAfterMs };
    }
    if (organizations && tenant !== undefined) {
      const decision = await organizations.take(tenant, cost);
      result.organization = statusOf(organizations, decision);
      if (!decision.allowed) {
        if (users) await users.refund(uid, cost);
        return { ...result, allowed: false, refusedBy: 'organization', retryAfterMs: decision.retryAfterMs };
      }
    }
    return result;
  }

  return {
    userPerMinute: options.userPerMinute,
    organizationPerMinute: options.organizationPerMinute,
    charge,
    async close() {
      await Promise.all([users?.close(), organizations?.close()]);
    },
  };
}
