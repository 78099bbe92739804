/**
 * The rate limit runs where the caller becomes known: right after the access token is verified,
 * when Apollo Server builds the request's context. That is before parsing, planning and any
 * subgraph call, so a refused request costs one bucket update and reaches no subgraph. Requests
 * without a valid token are refused by the context itself (UNAUTHENTICATED) and never counted.
 */
import { GraphQLError } from 'graphql';
import type { UserContext } from '@fleetgraph/auth';
import type { RateLimiter } from './limiter';

export const RATE_LIMITED = 'RATE_LIMITED';

export function rateLimitedError(limiter: RateLimiter, retryAfterMs: number): GraphQLError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new GraphQLError(
    `Too many requests: this login may send ${limiter.perMinute} requests per minute (bursts of ${limiter.burst}). Retry in ${retryAfterSeconds} s.`,
    {
      extensions: {
        code: RATE_LIMITED,
        retryAfterSeconds,
        limitPerMinute: limiter.perMinute,
        http: { status: 429, headers: new Map([['retry-after', String(retryAfterSeconds)]]) },
      },
    },
  );
}

export function withRateLimit<A extends unknown[], C extends { user: UserContext }>(
  factory: (...args: A) => Promise<C>,
  limiter: RateLimiter | undefined,
): (...args: A) => Promise<C> {
  if (!limiter) return factory;
  return async (...args: A) => {
    const context = await factory(...args);
    const decision = await limiter.take(context.user.uid);
    if (!decision.allowed) throw rateLimitedError(limiter, decision.retryAfterMs);
    return context;
  };
}
