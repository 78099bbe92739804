/**
 * Load shedding: a service refuses new work before its event loop saturates, with a coded,
 * retryable answer (HTTP 503 and Retry-After), rather than queueing requests until every one of
 * them times out.
 * - `maxInFlight` requests of the guarded routes being served: every new one is refused.
 * - The event loop's delay (its 90th percentile over the last `windowMs`) over
 *   `maxEventLoopDelayMs`: the load comes from the requests being served, so a new request of a
 *   caller already being served is refused, while a caller with nothing in flight here is still
 *   served: the caller causing the load is the one that waits. The service counts as slow until a
 *   window's delay falls under half the bound, so it does not flap at the edge.
 * At its in-flight bound /readyz answers 503 (`load`), so a load balancer sends new work elsewhere;
 * with a slow loop it answers 200 `degraded`, naming the delay.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envField } from './env';

export interface OverloadLimits {
  /** Requests of the guarded routes served at once (0: no cap). */
  maxInFlight: number;
  /** Event-loop delay, in ms, over which new requests are refused (0: not watched). */
  maxEventLoopDelayMs: number;
}

export const DEFAULT_OVERLOAD_LIMITS: OverloadLimits = { maxInFlight: 128, maxEventLoopDelayMs: 1000 };

export const OVERLOAD_ENV = {
  SHED_MAX_IN_FLIGHT: envField.int(DEFAULT_OVERLOAD_LIMITS.maxInFlight, 0),
  SHED_EVENT_LOOP_DELAY_MS: envField.int(DEFAULT_OVERLOAD_LIMITS.maxEventLoopDelayMs, 0),
};

export function overloadLimitsOf(parsed: Record<string, unknown>): OverloadLimits {
  return {
    maxInFlight: parsed.SHED_MAX_IN_FLIGHT as number,
    maxEventLoopDelayMs: parsed.SHED_EVENT_LOOP_DELAY_MS as number,
  };
}

export interface OverloadGuardOptions {
  limits: OverloadLimits;
  /** Seconds a refused client is told to wait. */
  retryAfterSeconds: number;
  /** Sends the refusal in the route's own language (a GraphQL error, an OAuth error...). */
  refuse(reply: FastifyReply, reason: string): unknown;
  /** Who a request comes from (its tenant, its login): the unit shed first when the loop is slow. */
  callerOf(request: FastifyRequest): string;
  /** The event loop's recent delay in ms (default: measured; tests pass their own). */
  eventLoopDelay?: () => number;
  /** How often the delay is sampled (default 500 ms). */
  windowMs?: number;
}

/** Measures the event loop's delay: the 90th percentile of the last window, in ms. */
function eventLoopDelayProbe(app: FastifyInstance, windowMs: number): () => number {
  const resolutionMs = 20;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let last = 0;
  const timer = setInterval(() => {
    last = Math.max(0, histogram.percentile(90) / 1e6 - resolutionMs);
    histogram.reset();
  }, windowMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    histogram.disable();
  });
  return () => last;
}

/**
 * Guards the routes registered in `scope` (an encapsulated Fastify scope: hooks apply to its own
 * routes only), and adds the `load` readiness check to `app`.
 */
export function guardOverload(
  app: FastifyInstance,
  scope: FastifyInstance,
  options: OverloadGuardOptions,
): void {
  const { limits } = options;
  const delay =
    limits.maxEventLoopDelayMs > 0
      ? (options.eventLoopDelay ?? eventLoopDelayProbe(app, options.windowMs ?? 500))
      : () => 0;
  let inFlight = 0;
  const callers = new Map<string, number>();
  let slow = false;

  const full = () => limits.maxInFlight > 0 && inFlight >= limits.maxInFlight;
  /** The loop's delay when it is over the bound (half the bound once slow), else undefined. */
  const slowLoop = (): number | undefined => {
    const measured = delay();
    const bound = slow ? limits.maxEventLoopDelayMs / 2 : limits.maxEventLoopDelayMs;
    slow = limits.maxEventLoopDelayMs > 0 && measured > bound;
    return slow ? measured : undefined;
  };

  /** Why a request of `caller` is refused now, or undefined when it is served. */
  const refusal = (caller: string): string | undefined => {
    if (full()) return `${inFlight} requests in flight, the most this instance serves at once`;
    const measured = slowLoop();
    if (measured !== undefined && (callers.get(caller) ?? 0) > 0)
      return `event loop delay ${Math.round(measured)} ms is over ${limits.maxEventLoopDelayMs} ms while your requests are in flight`;
    return undefined;
  };

  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = options.callerOf(request);
    const reason = refusal(caller);
    if (reason) {
      reply.header('retry-after', String(options.retryAfterSeconds));
      return options.refuse(reply.code(503), reason);
    }
    inFlight += 1;
    callers.set(caller, (callers.get(caller) ?? 0) + 1);
    reply.raw.once('close', () => {
      inFlight -= 1;
      const left = (callers.get(caller) ?? 1) - 1;
      if (left === 0) callers.delete(caller);
      else callers.set(caller, left);
    });
    return undefined;
  });

  // Full: not ready, new work should go elsewhere. Slow: degraded (still 200), as a slow loop is
  // often the host's contention, which taking every instance out of the balancer would not cure.
  app.addReadinessCheck('load', async () => {
    if (full()) throw new Error(`overloaded: ${inFlight} requests in flight`);
    const measured = slowLoop();
    return measured === undefined
      ? undefined
      : `slow: event loop delay ${Math.round(measured)} ms is over ${limits.maxEventLoopDelayMs} ms`;
  });
}
