/**
 * Prometheus metrics of the gateway, in a registry of its own (plus the default process metrics).
 *
 * Label cardinality is bounded: operation names come from clients, so a name is used only when it
 * is a valid GraphQL name of at most 64 characters, unnamed operations are "anonymous", requests
 * refused for want of a valid token are all "unauthenticated" whatever name they send, and past
 * `maxOperations` distinct names every new one is counted as "other". Error codes are capped the
 * same way. Subgraph names come from the supergraph; cache results are a fixed set.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type CacheLookupResult = 'hit' | 'miss' | 'bypass';
export type SubgraphFetchOutcome =
  | 'ok'
  | 'timeout'
  | 'unavailable'
  | 'http_error'
  | 'graphql_error'
  /** Refused at the gateway: the subgraph's queue was full (admission/admission.ts). */
  | 'busy'
  /** Aborted because the client went away. */
  | 'cancelled';

export interface GatewayMetrics {
  readonly registry: Registry;
  /** One finished /graphql request. */
  request(operation: string | undefined, status: number, seconds: number): void;
  /** One call to a subgraph (outcome other than ok also counts as an error). */
  subgraphFetch(subgraph: string, outcome: SubgraphFetchOutcome, seconds: number): void;
  /** A subgraph call answered by an identical call already in flight (data-source.ts). */
  subgraphCollapsed(subgraph: string): void;
  /** A subgraph answer sent to the client as it came, checked but not rebuilt (engine/result-shaping/pass-through.ts). */
  subgraphPassedThrough(subgraph: string): void;
  /** One response-cache lookup (called by the response cache). */
  cacheLookup(result: CacheLookupResult): void;
  /** A lookup the Redis store answered from this process (cache/near-cache.ts). */
  cacheNearHit(): void;
  /** Whether Redis tracks this gateway's reads, so that its near cache may answer. */
  cacheNearTracking(on: boolean): void;
  /** One GraphQL error sent to a client, by extensions.code. */
  graphqlError(code: unknown): void;
  /** The label an operation name is counted under. */
  operationLabel(name: string | null | undefined): string;
}

export interface MetricsOptions {
  /** Distinct operation names tracked before new ones are counted as "other" (default 200). */
  maxOperations?: number;
  /** Collect the default process metrics (CPU, memory, event loop lag...); default true. */
  processMetrics?: boolean;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
const MAX_ERROR_CODES = 50;

/** A set of label values that stops growing at `max` (then new values map to `overflow`). */
function boundedLabels(max: number, overflow: string) {
  const seen = new Set<string>();
  return (value: string): string => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return overflow;
    seen.add(value);
    return value;
  };
}

export function createGatewayMetrics(options: MetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'gateway_requests_total',
    help: 'GraphQL requests answered, by operation name and HTTP status',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from receiving a GraphQL request to sending its response, by operation name',
    labelNames: ['operation'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const subgraphDuration = new Histogram({
    name: 'gateway_subgraph_fetch_duration_seconds',
    help: 'Time of one subgraph call (request sent to response body read), by subgraph',
    labelNames: ['subgraph'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const subgraphErrors = new Counter({
    name: 'gateway_subgraph_fetch_errors_total',
    help: 'Subgraph calls that failed, by subgraph and reason (timeout, unavailable, http_error, graphql_error)',
    labelNames: ['subgraph', 'reason'] as const,
    registers: [registry],
  });
  const subgraphCollapsed = new Counter({
    name: 'gateway_subgraph_fetch_collapsed_total',
    help: 'Subgraph calls not sent because an identical call of the same login was in flight, by subgraph',
    labelNames: ['subgraph'] as const,
    registers: [registry],
  });
  const passedThrough = new Counter({
    name: 'gateway_subgraph_answers_passed_through_total',
    help: 'Subgraph answers sent to the client as they came (a single-fetch plan asking what the client asked, the answer checked against it), by subgraph',
    labelNames: ['subgraph'] as const,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: 'gateway_cache_lookups_total',
    help: 'Response cache lookups, by result (hit, miss, bypass)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const nearHits = new Counter({
    name: 'gateway_cache_near_hits_total',
    help: 'Response cache lookups answered from this process while Redis tracks its reads (no Redis round trip)',
    registers: [registry],
  });
  const nearTracking = new Gauge({
    name: 'gateway_cache_near_tracking',
    help: "1 while Redis tracks this gateway's reads of the response cache (its near cache answers), else 0",
    registers: [registry],
  });
  const graphqlErrors = new Counter({
    name: 'gateway_graphql_errors_total',
    help: 'GraphQL errors sent to clients, by extensions.code',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  // Cache results are a fixed set: zero-valued series exist from the start.
  for (const result of ['hit', 'miss', 'bypass'] as const) cacheLookups.inc({ result }, 0);

  const operations = boundedLabels(options.maxOperations ?? 200, 'other');
  const codes = boundedLabels(MAX_ERROR_CODES, 'OTHER');
  const operationLabel = (name: string | null | undefined): string => {
    if (!name) return 'anonymous';
    if (!GRAPHQL_NAME.test(name)) return 'invalid';
    return operations(name);
  };

  return {
    registry,
    operationLabel,
    request(operation, status, seconds) {
      // A caller without a valid token may not choose label values: with made-up operation names
      // it could use up the label budget and hide the real operations under "other".
      const label = status === 401 ? 'unauthenticated' : operationLabel(operation);
      requests.inc({ operation: label, status: String(status) });
      requestDuration.observe({ operation: label }, seconds);
    },
    subgraphCollapsed(subgraph) {
      subgraphCollapsed.inc({ subgraph });
    },
    subgraphPassedThrough(subgraph) {
      passedThrough.inc({ subgraph });
    },
    subgraphFetch(subgraph, outcome, seconds) {
      subgraphDuration.observe({ subgraph }, seconds);
      if (outcome !== 'ok') subgraphErrors.inc({ subgraph, reason: outcome });
    },
    cacheLookup(result) {
      cacheLookups.inc({ result });
    },
    cacheNearHit() {
      nearHits.inc();
    },
    cacheNearTracking(on) {
      nearTracking.set(on ? 1 : 0);
    },
    graphqlError(code) {
      const label = typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? codes(code) : 'UNKNOWN';
      graphqlErrors.inc({ code: label });
    },
  };
}
