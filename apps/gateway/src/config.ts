import { DEFAULT_REVOCATION_CACHE_MS, DEFAULT_REVOCATION_PREFIX } from '@fleetgraph/auth';
import { join } from 'node:path';
import {
  ConfigError,
  envField,
  HTTP_LIMITS_ENV,
  httpLimitsOf,
  parseEnv,
  repoRoot,
  z,
  type HttpLimits,
} from '@fleetgraph/service-kit';
import { QUERY_LIMITS_ENV, queryLimitsOf, type QueryLimits } from '@fleetgraph/query-limits';
import type { AdmissionLimits } from './admission/admission';

export interface GatewayConfig {
  port: number;
  host: string;
  logLevel: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  supergraphPath: string;
  introspection: boolean;
  /** subgraph name -> URL, overriding the supergraph's (SUBGRAPH_FLEET_CORE_URL=...) */
  subgraphUrls: Record<string, string>;
  subgraphTimeoutMs: number;
  /** Per-subgraph timeouts overriding subgraphTimeoutMs (SUBGRAPH_VEHICLE_DATA_TIMEOUT_MS=2000). */
  subgraphTimeouts: Record<string, number>;
  /** Keep-alive connections per subgraph origin (SUBGRAPH_CONNECTIONS, default 64). */
  subgraphConnections: number;
  /**
   * SUBGRAPH_DEDUP (default true): an identical query call of the same login already in flight
   * to a subgraph is shared instead of sent again (data-source.ts); never across logins.
   */
  subgraphDedup: boolean;
  /**
   * APOLLO_TELEMETRY_DISABLED (default true, unlike @apollo/gateway's own default): left on,
   * @apollo/gateway reports usage metrics (uptime, CPU, memory, host and cloud provider) to Apollo
   * every hour and asks the cloud metadata services of AWS, GCP, Azure and Alibaba at start.
   * `false` turns it back on.
   */
  apolloTelemetry: boolean;
  /** Query plans kept, approximate MiB (QUERY_PLAN_CACHE_MB, default 30). */
  queryPlanCacheMb: number;
  /** Parsed and validated documents kept, approximate MiB (DOCUMENT_CACHE_MB, default 30). */
  documentCacheMb: number;
  /** Reload the supergraph file when it changes (SUPERGRAPH_WATCH, default true). */
  supergraphWatch: boolean;
  /** /readyz probes each subgraph's /readyz with this timeout and reuses the answers this long. */
  readinessProbeTimeoutMs: number;
  readinessCacheMs: number;
  /** `any`: ready while one subgraph answers (others reported degraded); `all`: every one. */
  readinessRequires: 'any' | 'all';
  /** The SSO's keys are refreshed when older than this; kept (and used) while the SSO is down. */
  jwksMaxAgeMs: number;
  /** GET /metrics (Prometheus); METRICS=false turns it off. */
  metricsEnabled: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  metricsToken: string | undefined;
  /** Distinct operation names labelled in metrics; more are counted as "other". */
  metricsMaxOperations: number;
  /**
   * CORS_ORIGINS: browser origins allowed to call /graphql from another origin (comma separated,
   * `https://app.example.com`, or `*` for any); empty (the default): same-origin only.
   */
  corsOrigins: string[];
  /** Redis: shared rate limits, query cache, persisted queries, and revocations published there too. */
  redisUrl: string | undefined;
  /**
   * The database where the SSO publishes revocations (sso_contract, LISTEN/NOTIFY):
   * REVOCATIONS_DATABASE_URL, default DATABASE_URL. Without either (and without Redis) the gateway
   * honours only revocations made in its own process.
   */
  revocationsDatabaseUrl: string | undefined;
  /** SUBGRAPH_SHARED_SECRET: sent to every subgraph, which then answers the gateway only. */
  subgraphSecret: string | undefined;
  /** How long a "not revoked" answer is reused per token (REVOCATION_CACHE_MS, default 2000). */
  revocationCacheMs: number;
  /** Prefix of the revocation list's Redis keys (REVOCATION_PREFIX, default `fleetgraph:revoked:`; the SSO's). */
  revocationPrefix: string;
  /**
   * Query limits (libs/query-limits, the same variables as the subgraphs'): each refusal
   * is QUERY_TOO_COMPLEX with the rule, limit and measured value.
   */
  limits: QueryLimits;
  /** Largest request body in bytes; larger bodies get HTTP 413 PAYLOAD_TOO_LARGE. */
  maxBodyBytes: number;
  /** Automatic persisted queries (Apollo APQ): on by default; bounded cache, entries expire after apqTtlSeconds. */
  persistedQueries: boolean;
  apqTtlSeconds: number;
  /** In-memory APQ cache size in bytes (used when REDIS_URL is not set). */
  apqCacheMaxBytes: number;
  /** Per-login query cache (`cache` query): in-memory LRU size in bytes when REDIS_URL is not set. */
  queryCacheMaxBytes: number;
  /**
   * Redis of the query cache (QUERY_CACHE_REDIS_URL, default REDIS_URL). A separate instance lets
   * the cache run with an eviction policy (allkeys-lru) while token state must never be evicted.
   */
  queryCacheRedisUrl: string | undefined;
  /** Prefix of the query cache's Redis keys (QUERY_CACHE_PREFIX, default `fleetgraph:cache:`). */
  queryCachePrefix: string;
  /**
   * How long a login's cache settings read from Redis are reused by this instance
   * (QUERY_CACHE_SETTINGS_MS, default 1000; 0: read on every request). Settings saved through this
   * instance apply at once; saved through another, within this time.
   */
  queryCacheSettingsMs: number;
  /**
   * Bytes of the Redis query cache's epochs and entries this instance keeps while Redis tracks
   * them for it (QUERY_CACHE_NEAR_BYTES, default 32 MiB; 0: every lookup asks Redis). Redis
   * tells the instance when any of them changes (client-side caching), so a flush through
   * another instance applies here as soon as Redis's message arrives (cache/near-cache.ts).
   */
  queryCacheNearBytes: number;
  /** Requests per minute per signed-in user (token uid); 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Requests a user may send at once before the per-minute rate applies (default: rateLimitPerMinute). */
  rateLimitBurst: number;
  /**
   * Most tokens one instance leases from a user's shared Redis bucket in one round trip
   * (RATE_LIMIT_LEASE, default 16; 1: every request asks Redis). Never more than an eighth of what
   * the bucket holds, so near the limit every request is decided by Redis.
   */
  rateLimitLease: number;
  /** Prefix of the per-user buckets in Redis (RATE_LIMIT_PREFIX, default `fleetgraph:ratelimit:`). */
  rateLimitPrefix: string;
  /** Header, body and idle deadlines and the per-address connection cap (HTTP_*; service-kit http-limits.ts). */
  http: HttpLimits;
  /** Cost budgets (budget/budget.ts), in cost points. */
  budget: BudgetConfig;
  /** Admission to each subgraph (admission/admission.ts): calls in flight and waiting. */
  admission: AdmissionLimits;
  /** The explorer (GraphiQL at /explorer) signs in at the SSO as this OAuth client; absent: explorer disabled. */
  explorer: ExplorerConfig | undefined;
}

export interface BudgetConfig {
  /** Points per minute per user (COST_BUDGET_PER_MINUTE, default 1,000,000; 0: none). */
  userPerMinute: number;
  /** Points per minute per organization (COST_BUDGET_ORGANIZATION_PER_MINUTE, default 5,000,000; 0: none). */
  organizationPerMinute: number;
  /** Most points an instance leases from a shared Redis bucket at once (COST_BUDGET_LEASE, default 25,000). */
  lease: number;
  /** Prefix of the budgets' buckets in Redis (COST_BUDGET_PREFIX, default `fleetgraph:budget:`). */
  prefix: string;
  /** Points each `__schema`/`__type` root costs when walked (INTROSPECTION_ROOT_COST, default 50,000). */
  introspectionRootCost: number;
  /** How long a user's organization is remembered (TENANT_CACHE_MS, default 300,000). */
  tenantCacheMs: number;
}

export interface ExplorerConfig {
  clientId: string;
  clientSecret: string;
  /** The gateway's address as browsers see it; the callback is <publicUrl>/explorer/callback. */
  publicUrl: string;
  /** Where the gateway itself reaches the SSO's token and revocation endpoints (default: the issuer). */
  ssoUrl: string;
  /** Secure cookies (EXPLORER_SECURE_COOKIES; default: https or a loopback address, see secureCookies). */
  secureCookies: boolean;
  /** Key material for the encrypted session cookie (default: derived from the client secret). */
  sessionSecret: string;
}

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const schema = z.object({
    GATEWAY_PORT: envField.port(4000),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: envField.logLevel(),
    SSO_ISSUER: z.string().url().default('http://localhost:4100'),
    SSO_JWKS_URL: z.string().url().optional(),
    TOKEN_AUDIENCE: z.string().min(1).default('fleetgraph'),
    SUPERGRAPH_PATH: z.string().default(join(repoRoot, 'supergraph.graphql')),
    INTROSPECTION: envField.bool(true),
    SUBGRAPH_TIMEOUT_MS: envField.int(10_000, 1),
    SUBGRAPH_CONNECTIONS: envField.int(64, 1),
    SUBGRAPH_DEDUP: envField.bool(true),
    APOLLO_TELEMETRY_DISABLED: envField.bool(true),
    QUERY_PLAN_CACHE_MB: envField.int(30, 1),
    DOCUMENT_CACHE_MB: envField.int(30, 1),
    SUPERGRAPH_WATCH: envField.bool(true),
    READINESS_PROBE_TIMEOUT_MS: envField.int(1000, 1),
    READINESS_CACHE_MS: envField.int(2000, 0),
    READINESS_REQUIRES: z.enum(['any', 'all']).default('any'),
    JWKS_MAX_AGE_MS: envField.int(600_000, 1000),
    METRICS: envField.bool(true),
    METRICS_TOKEN: z.string().min(16, 'must have at least 16 characters').optional(),
    METRICS_MAX_OPERATIONS: envField.int(200, 1),
    REDIS_URL: z.string().url().optional(),
    DATABASE_URL: z.string().optional(),
    REVOCATIONS_DATABASE_URL: z.string().optional(),
    SUBGRAPH_SHARED_SECRET: z.string().min(16, 'must have at least 16 characters').optional(),
    REVOCATION_CACHE_MS: envField.int(DEFAULT_REVOCATION_CACHE_MS, 0),
    REVOCATION_PREFIX: z.string().min(1).default(DEFAULT_REVOCATION_PREFIX),
    ...QUERY_LIMITS_ENV,
    ...HTTP_LIMITS_ENV,
    MAX_BODY_BYTES: envField.int(1_000_000, 1),
    PERSISTED_QUERIES: envField.bool(true),
    APQ_TTL_SECONDS: envField.int(86_400, 1),
    APQ_CACHE_MAX_BYTES: envField.int(32 * 1024 * 1024, 1024),
    QUERY_CACHE_MAX_BYTES: envField.int(64 * 1024 * 1024, 1024),
    QUERY_CACHE_REDIS_URL: z.string().url().optional(),
    QUERY_CACHE_PREFIX: z.string().min(1).default('fleetgraph:cache:'),
    QUERY_CACHE_SETTINGS_MS: envField.int(1000, 0),
    QUERY_CACHE_NEAR_BYTES: envField.int(32 * 1024 * 1024, 0),
    RATE_LIMIT_PER_MINUTE: envField.int(600, 0),
    RATE_LIMIT_BURST: envField.int(0, 0),
    RATE_LIMIT_LEASE: envField.int(16, 1),
    RATE_LIMIT_PREFIX: z.string().min(1).default('fleetgraph:ratelimit:'),
    COST_BUDGET_PER_MINUTE: envField.int(1_000_000, 0),
    COST_BUDGET_ORGANIZATION_PER_MINUTE: envField.int(5_000_000, 0),
    COST_BUDGET_LEASE: envField.int(25_000, 1),
    COST_BUDGET_PREFIX: z.string().min(1).default('fleetgraph:budget:'),
    INTROSPECTION_ROOT_COST: envField.int(50_000, 0),
    TENANT_CACHE_MS: envField.int(300_000, 1000),
    SUBGRAPH_MAX_IN_FLIGHT: envField.int(64, 1),
    SUBGRAPH_TENANT_MAX_IN_FLIGHT: envField.int(16, 1),
    SUBGRAPH_QUEUE_MAX: envField.int(1024, 0),
    SUBGRAPH_TENANT_QUEUE_MAX: envField.int(64, 0),
    CORS_ORIGINS: z.string().optional(),
    EXPLORER_CLIENT_ID: z.string().min(1).optional(),
    EXPLORER_CLIENT_SECRET: z.string().min(1).optional(),
    EXPLORER_PUBLIC_URL: z.string().url().optional(),
    EXPLORER_SSO_URL: z.string().url().optional(),
    EXPLORER_SECURE_COOKIES: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
    EXPLORER_SESSION_SECRET: z.string().min(32).optional(),
  });
  const parsed = parseEnv('gateway', schema, env);
  const explorerUrl = (parsed.EXPLORER_PUBLIC_URL ?? `http://localhost:${parsed.GATEWAY_PORT}`).replace(
    /\/$/,
    '',
  );
  const subgraphUrls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9_]+)_URL$/.exec(key);
    if (match?.[1] && value) subgraphUrls[match[1].toLowerCase().replace(/_/g, '-')] = value;
  }
  return {
    port: parsed.GATEWAY_PORT,
    host: parsed.HOST,
    logLevel: parsed.LOG_LEVEL,
    issuer: parsed.SSO_ISSUER,
    jwksUrl: parsed.SSO_JWKS_URL ?? `${parsed.SSO_ISSUER.replace(/\/$/, '')}/.well-known/jwks.json`,
    audience: parsed.TOKEN_AUDIENCE,
    supergraphPath: parsed.SUPERGRAPH_PATH,
    introspection: parsed.INTROSPECTION,
    subgraphUrls,
    subgraphTimeoutMs: parsed.SUBGRAPH_TIMEOUT_MS,
    subgraphTimeouts: subgraphTimeouts(env),
    subgraphConnections: parsed.SUBGRAPH_CONNECTIONS,
    subgraphDedup: parsed.SUBGRAPH_DEDUP,
    apolloTelemetry: !parsed.APOLLO_TELEMETRY_DISABLED,
    queryPlanCacheMb: parsed.QUERY_PLAN_CACHE_MB,
    documentCacheMb: parsed.DOCUMENT_CACHE_MB,
    supergraphWatch: parsed.SUPERGRAPH_WATCH,
    readinessProbeTimeoutMs: parsed.READINESS_PROBE_TIMEOUT_MS,
    readinessCacheMs: parsed.READINESS_CACHE_MS,
    readinessRequires: parsed.READINESS_REQUIRES,
    jwksMaxAgeMs: parsed.JWKS_MAX_AGE_MS,
    metricsEnabled: parsed.METRICS,
    metricsToken: parsed.METRICS_TOKEN,
    metricsMaxOperations: parsed.METRICS_MAX_OPERATIONS,
    redisUrl: parsed.REDIS_URL,
    revocationsDatabaseUrl: parsed.REVOCATIONS_DATABASE_URL ?? parsed.DATABASE_URL,
    subgraphSecret: parsed.SUBGRAPH_SHARED_SECRET,
    revocationCacheMs: parsed.REVOCATION_CACHE_MS,
    revocationPrefix: parsed.REVOCATION_PREFIX,
    limits: queryLimitsOf(parsed),
    http: httpLimitsOf(parsed),
    maxBodyBytes: parsed.MAX_BODY_BYTES,
    persistedQueries: parsed.PERSISTED_QUERIES,
    apqTtlSeconds: parsed.APQ_TTL_SECONDS,
    apqCacheMaxBytes: parsed.APQ_CACHE_MAX_BYTES,
    queryCacheMaxBytes: parsed.QUERY_CACHE_MAX_BYTES,
    queryCacheRedisUrl: parsed.QUERY_CACHE_REDIS_URL ?? parsed.REDIS_URL,
    queryCachePrefix: parsed.QUERY_CACHE_PREFIX,
    queryCacheSettingsMs: parsed.QUERY_CACHE_SETTINGS_MS,
    queryCacheNearBytes: parsed.QUERY_CACHE_NEAR_BYTES,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    rateLimitBurst: parsed.RATE_LIMIT_BURST || parsed.RATE_LIMIT_PER_MINUTE,
    rateLimitLease: parsed.RATE_LIMIT_LEASE,
    rateLimitPrefix: parsed.RATE_LIMIT_PREFIX,
    budget: budgetConfig(parsed),
    admission: {
      maxInFlight: parsed.SUBGRAPH_MAX_IN_FLIGHT,
      tenantMaxInFlight: Math.min(parsed.SUBGRAPH_TENANT_MAX_IN_FLIGHT, parsed.SUBGRAPH_MAX_IN_FLIGHT),
      queueMax: parsed.SUBGRAPH_QUEUE_MAX,
      tenantQueueMax: Math.min(parsed.SUBGRAPH_TENANT_QUEUE_MAX, parsed.SUBGRAPH_QUEUE_MAX),
    },
    corsOrigins: corsOrigins(parsed.CORS_ORIGINS),
    explorer:
      parsed.EXPLORER_CLIENT_ID && parsed.EXPLORER_CLIENT_SECRET
        ? {
            clientId: parsed.EXPLORER_CLIENT_ID,
            clientSecret: parsed.EXPLORER_CLIENT_SECRET,
            publicUrl: explorerUrl,
            ssoUrl: (parsed.EXPLORER_SSO_URL ?? parsed.SSO_ISSUER).replace(/\/$/, ''),
            secureCookies: secureCookies(parsed.EXPLORER_SECURE_COOKIES, explorerUrl),
            sessionSecret: parsed.EXPLORER_SESSION_SECRET ?? parsed.EXPLORER_CLIENT_SECRET,
          }
        : undefined,
  };
}

/**
 * The budgets; each must hold at least the most expensive query the limits accept (MAX_COST), or
 * that query could never be paid for.
 */
function budgetConfig(parsed: {
  COST_BUDGET_PER_MINUTE: number;
  COST_BUDGET_ORGANIZATION_PER_MINUTE: number;
  COST_BUDGET_LEASE: number;
  COST_BUDGET_PREFIX: string;
  INTROSPECTION_ROOT_COST: number;
  TENANT_CACHE_MS: number;
  MAX_COST: number;
}): BudgetConfig {
  const problems = (['COST_BUDGET_PER_MINUTE', 'COST_BUDGET_ORGANIZATION_PER_MINUTE'] as const)
    .filter((name) => parsed[name] > 0 && parsed[name] < parsed.MAX_COST)
    .map((name) => `${name}: must be 0 (off) or at least MAX_COST (${parsed.MAX_COST})`);
  if (problems.length > 0) throw new ConfigError('gateway', problems);
  return {
    userPerMinute: parsed.COST_BUDGET_PER_MINUTE,
    organizationPerMinute: parsed.COST_BUDGET_ORGANIZATION_PER_MINUTE,
    lease: parsed.COST_BUDGET_LEASE,
    prefix: parsed.COST_BUDGET_PREFIX,
    introspectionRootCost: parsed.INTROSPECTION_ROOT_COST,
    tenantCacheMs: parsed.TENANT_CACHE_MS,
  };
}

/** CORS_ORIGINS -> the allowed origins; each must be `*` or exactly an origin (no path, no slash). */
function corsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const isOrigin = (origin: string) => {
    try {
      const url = new URL(origin);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
    } catch {
      return false;
    }
  };
  const problems = origins
    .filter((origin) => origin !== '*' && !isOrigin(origin))
    .map((origin) => `CORS_ORIGINS: ${origin} is not an origin (http(s)://host[:port], no path) or *`);
  if (problems.length > 0) throw new ConfigError('gateway', problems);
  return origins;
}

/** SUBGRAPH_<NAME>_TIMEOUT_MS -> { name: ms } (name lower-case, `_` -> `-`, as for the URLs). */
function subgraphTimeouts(env: Record<string, string | undefined>): Record<string, number> {
  const timeouts: Record<string, number> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9_]+)_TIMEOUT_MS$/.exec(key);
    if (!match?.[1] || value === undefined || value === '') continue;
    const ms = Number(value);
    if (!Number.isInteger(ms) || ms < 1) problems.push(`${key}: must be a whole number of milliseconds >= 1`);
    else timeouts[match[1].toLowerCase().replace(/_/g, '-')] = ms;
  }
  if (problems.length > 0) throw new ConfigError('gateway', problems);
  return timeouts;
}

/**
 * Explorer cookies are Secure unless EXPLORER_SECURE_COOKIES says otherwise; by default they are
 * Secure over https and on loopback addresses (browsers accept Secure cookies from
 * http://localhost), and not over plain http elsewhere, where browsers would drop them.
 */
function secureCookies(setting: string | undefined, publicUrl: string): boolean {
  if (setting !== undefined) return setting === 'true' || setting === '1' || setting === 'yes';
  const url = new URL(publicUrl);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
