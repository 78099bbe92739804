/**
 * The gateway: @apollo/server + @apollo/gateway on Fastify. Verifies access tokens, plans
 * queries over the subgraphs of the composed supergraph, and forwards the caller's context.
 */
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import { createRevocationList, createTokenVerifier, type RevocationList } from '@fleetgraph/auth';
import { createServer, type ServerOptions } from '@fleetgraph/service-kit';
import type { GatewayConfig } from './config';
import { contextFactory, type GatewayContext } from './context';
import {
  createSubgraphPools,
  ForwardingDataSource,
  createCacheFront,
  engineGate,
  expectPassThrough,
  passThroughCheck,
  installCompiledResultShaping,
  jsonMediaTypeStatus,
} from './engine';
import { scopesPlugin } from './scopes/plugin';
import { createGatewayMetrics, type GatewayMetrics } from './observability/metrics';
import { metricsPlugin, registerMetrics } from './observability/plugin';
import { documentStore } from './resilience/caches';
import { createResilientJwks } from './resilience/jwks';
import { subgraphReadiness } from './resilience/readiness';
import { createSupergraphSource } from './resilience/supergraph';
import { formatError } from './errors';
import { operationChecksPlugin } from './operation-checks';
import { limitsParseOptions, nestingPreHandler, queryLimitsPlugin } from './limits/plugin';
import { introspectionPlugin } from './introspection/plugin';
import { introspectionAnswersPlugin } from './introspection/answers';
import { registerExplorer } from './explorer/plugin';
import { persistedQueries, type PersistedQueryStore } from './persisted-queries/apq';
import { withRateLimit } from './rate-limit/context';
import { createRateLimiter } from './rate-limit/limiter';
import { CACHE_SUBGRAPH, cacheSubgraph, responseCachePlugin } from './cache/plugin';
import { memoizeSettings, memoryCacheStore, redisCacheStore, type CacheStore } from './cache/store';
import { StoredJson, stringifyResult } from './cache/stored-json';
import { registerCors } from './cors';
import { createAdmission, type Admission } from './admission/admission';
import { createCostBudget, type CostBudget } from './budget/budget';
import { budgetPlugin } from './budget/plugin';
import { createTenantDirectory, TENANT_QUERY, userTenant } from './budget/tenants';
import {
  GRAPHQL_METHODS,
  methodNotAllowed,
  refuseContentEncoding,
  refusedRequestHandler,
} from './refused-requests';

export interface GatewayBuildOptions {
  jwks?: JWTVerifyGetKey;
  /** The SSO's revocation list (the one-process start shares its in-memory list); default from REDIS_URL. */
  revocations?: RevocationList;
  /** Called when a subgraph call joined an identical one in flight (tests wait on it). */
  onSubgraphCollapsed?: (subgraph: string) => void;
  /** Called when the gateway walks its schema for an introspection question it had no answer to. */
  onIntrospectionWalk?: () => void;
  /** Called when a cache hit was answered before Apollo Server (engine/front-door.ts; tests count them). */
  onCacheFrontHit?: () => void;
  /**
   * Called when the Redis near cache's tracking turns on or off, and with the keys of each
   * invalidation it applied (null: all), so tests wait on Redis's messages instead of the clock.
   */
  onNearCache?: { tracking?: (on: boolean) => void; invalidated?: (keys: string[] | null) => void };
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logStream?: ServerOptions['logStream'];
  /** The query cache's store (default: Redis with REDIS_URL, else memory); tests pass their own. */
  queryCacheStore?: CacheStore;
  /** The persisted queries' store (default: Redis with REDIS_URL, else memory); tests pass their own. */
  persistedQueryStore?: PersistedQueryStore;
  /**
   * The clock, in epoch ms, of every time-based part (token cache, revocation cache, query cache,
   * rate limiter, JWKS refresh, readiness cache). Default Date.now; tests pass one they advance.
   */
  now?: () => number;
}

type Clock = { now?: () => number };

/** Bytes of introspection answers kept (introspection/answers.ts): a few schemas' full answers. */
const INTROSPECTION_ANSWER_BYTES = 32 * 1024 * 1024;

/** The per-login query cache's store: the one given, Redis (with its near cache), else memory. */
function queryCacheStoreFor(
  app: FastifyInstance,
  config: GatewayConfig,
  options: GatewayBuildOptions,
  metrics: GatewayMetrics,
  clock: Clock,
): CacheStore {
  if (options.queryCacheStore) return options.queryCacheStore;
  if (!config.queryCacheRedisUrl) return memoryCacheStore({ maxBytes: config.queryCacheMaxBytes, ...clock });
  const redis = redisCacheStore({
    redisUrl: config.queryCacheRedisUrl,
    keyPrefix: config.queryCachePrefix,
    nearBytes: config.queryCacheNearBytes,
    near: {
      onHit: () => metrics.cacheNearHit(),
      onTracking: (on) => {
        metrics.cacheNearTracking(on);
        options.onNearCache?.tracking?.(on);
      },
      ...(options.onNearCache?.invalidated ? { onInvalidated: options.onNearCache.invalidated } : {}),
    },
    onError: (error, operation) =>
      app.log.warn({ err: error, operation }, 'query cache unavailable: requests bypass it'),
  });
  return memoizeSettings(redis, { ttlMs: config.queryCacheSettingsMs, ...clock });
}

/** @apollo/gateway over the supergraph: each subgraph called by a forwarding data source. */
function federatedGateway(
  app: FastifyInstance,
  config: GatewayConfig,
  options: GatewayBuildOptions,
  parts: {
    supergraph: ReturnType<typeof createSupergraphSource>;
    shapingInstalled: boolean;
    local: ReturnType<typeof cacheSubgraph>;
    pools: ReturnType<typeof createSubgraphPools>;
    metrics: GatewayMetrics;
  },
): ApolloGateway {
  const { supergraph, shapingInstalled, local, pools, metrics } = parts;
  // One admission per subgraph, kept across supergraph reloads (which build new data sources).
  const admissions = new Map<string, Admission>();
  const admissionOf = (name: string) => {
    let admission = admissions.get(name);
    if (!admission) {
      admission = createAdmission(config.admission);
      admissions.set(name, admission);
    }
    return admission;
  };
  return withApolloTelemetry(
    config.apolloTelemetry,
    () =>
      new ApolloGateway({
        supergraphSdl: supergraph.hook,
        experimental_approximateQueryPlanStoreMiB: config.queryPlanCacheMb,
        // A plan that is one fetch asking what the client asked lets its answer pass through, checked
        // but not rebuilt (engine/result-shaping/pass-through.ts); the compiled shaping is what sends it.
        ...(shapingInstalled
          ? {
              experimental_didResolveQueryPlan: ({ queryPlan, operationContext, requestContext }) => {
                const check = passThroughCheck(
                  queryPlan,
                  operationContext.operation,
                  operationContext.schema,
                );
                if (check) expectPassThrough(requestContext.context, check);
              },
            }
          : {}),
        buildService: ({ name, url }) =>
          name === CACHE_SUBGRAPH
            ? local.dataSource
            : new ForwardingDataSource({
                name,
                url: config.subgraphUrls[name] ?? url ?? '',
                timeoutMs: config.subgraphTimeouts[name] ?? config.subgraphTimeoutMs,
                pools,
                metrics,
                log: app.log,
                ...(config.subgraphSecret ? { subgraphSecret: config.subgraphSecret } : {}),
                collapse: config.subgraphDedup,
                admission: admissionOf(name),
                ...(options.onSubgraphCollapsed ? { onCollapsed: options.onSubgraphCollapsed } : {}),
              }),
      }),
  );
}

/**
 * The access-token verifier: the SSO's keys (kept through SSO outages, resilience/jwks.ts) and
 * the revocation list. Verification stays local: revocations are followed from the database
 * (loaded at start, then LISTEN/NOTIFY), and Redis, when set, is asked at most once per token
 * every revocationCacheMs.
 */
function tokenVerification(
  app: FastifyInstance,
  config: GatewayConfig,
  options: GatewayBuildOptions,
  clock: Clock,
) {
  const revocations =
    options.revocations ??
    createRevocationList({
      ...(config.revocationsDatabaseUrl ? { databaseUrl: config.revocationsDatabaseUrl } : {}),
      ...(config.redisUrl ? { redisUrl: config.redisUrl, keyPrefix: config.revocationPrefix } : {}),
      cacheMs: config.revocationCacheMs,
      onError: (error, operation) => app.log.warn({ err: error, operation }, 'revocation list unavailable'),
      ...clock,
    });
  if (!options.revocations) app.addHook('onClose', async () => revocations.close());
  // Fetched now rather than on the first request.
  const ssoKeys = options.jwks
    ? undefined
    : createResilientJwks(config.jwksUrl, {
        maxAgeMs: config.jwksMaxAgeMs,
        onError: (error) =>
          app.log.warn({ error: error.message }, 'SSO keys not refreshed: keeping the last keys'),
        ...clock,
      });
  void ssoKeys?.loaded().catch(() => undefined);
  const verifier = createTokenVerifier({
    issuer: config.issuer,
    audience: config.audience,
    jwks: options.jwks ?? ssoKeys!,
    isRevoked: (jti) => revocations.isRevoked(jti),
    ...clock,
  });
  return { verifier, ssoKeys };
}

/** Apollo Server over the gateway, with the house plugins in the order they must run. */
function apolloServerFor(
  app: FastifyInstance,
  config: GatewayConfig,
  parts: {
    gateway: ApolloGateway;
    apq: ReturnType<typeof persistedQueries>;
    metrics: GatewayMetrics;
    queryCache: CacheStore;
    front: ReturnType<typeof createCacheFront>;
    supergraph: ReturnType<typeof createSupergraphSource>;
    budget: CostBudget | undefined;
    onIntrospectionWalk: (() => void) | undefined;
  },
  clock: Clock,
): ApolloServer<GatewayContext> {
  const { gateway, apq, metrics, queryCache, front, supergraph, budget, onIntrospectionWalk } = parts;
  const limits = config.limits;
  const apollo: ApolloServer<GatewayContext> = new ApolloServer<GatewayContext>({
    gateway,
    // INTROSPECTION is enforced by introspectionPlugin (a clear INTROSPECTION_DISABLED error).
    introspection: true,
    persistedQueries: apq.options,
    includeStacktraceInErrorResponses: false,
    formatError,
    // A cache hit's stored bytes are written as they are (cache/stored-json.ts).
    stringifyResult,
    parseOptions: limitsParseOptions(limits),
    documentStore: documentStore(config.documentCacheMb),
    // The default landing page loads from a CDN; the explorer will be served locally instead.
    // No drain plugin: it calls fastify.close() from apollo.stop(), which our onClose hook calls,
    // so closing would wait on itself. Fastify's own close already drains connections.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      metricsPlugin<GatewayContext>(metrics),
      operationChecksPlugin<GatewayContext>(),
      queryLimitsPlugin<GatewayContext>(limits, supergraph.costs),
      scopesPlugin(),
      introspectionPlugin<GatewayContext>(config.introspection),
      introspectionAnswersPlugin<GatewayContext>({
        maxBytes: INTROSPECTION_ANSWER_BYTES,
        ...(onIntrospectionWalk ? { onWalk: onIntrospectionWalk } : {}),
      }),
      apq.plugin,
      responseCachePlugin<GatewayContext>({
        store: queryCache,
        onLookup: (result) => metrics.cacheLookup(result),
        front,
        ...clock,
      }),
      // Last of the plugins that may answer an operation themselves: what they answer is free.
      budgetPlugin<GatewayContext>({
        budget,
        introspectionRootCost: config.budget.introspectionRootCost,
        tenants: createTenantDirectory({
          ttlMs: config.budget.tenantCacheMs,
          onError: (error) =>
            app.log.warn({ err: error }, 'tenant lookup failed: the user is its own tenant for now'),
          ...clock,
        }),
        organizationOf: (context) => organizationOf(apollo, context),
      }),
    ],
    logger: app.log,
    // Whoever owns the process stops it (main.ts's onShutdown, or npm start's platform, which
    // closes services in order and the database last). Apollo's own SIGINT/SIGTERM handler (on by
    // default outside NODE_ENV=test) re-raised the signal once the gateway stopped, killing the
    // process in the middle of the platform's orderly shutdown.
    stopOnTerminationSignals: false,
  });
  return apollo;
}

/**
 * The caller's organization as the graph answers it, asked by the gateway for itself through the
 * same pipeline as a client's query (with the caller's own token, so visibility and scopes apply),
 * marked internal so that no budget is charged for it.
 */
async function organizationOf(
  apollo: ApolloServer<GatewayContext>,
  context: GatewayContext,
): Promise<string | null> {
  const response = await apollo.executeOperation(
    { query: TENANT_QUERY },
    { contextValue: { ...context, tenant: userTenant(context.user.uid), internal: true, observation: {} } },
  );
  if (response.body.kind !== 'single') return null;
  const data: unknown = response.body.singleResult.data;
  const answer = (data instanceof StoredJson ? data.toJSON() : data) as
    { account?: { organizationId?: string | null } | null } | null | undefined;
  return answer?.account?.organizationId ?? null;
}

/**
 * Ready once the SSO's keys were fetched (without them no token verifies; after that, SSO outages
 * are survived with the keys held) and the required subgraphs answer.
 */
function addReadinessChecks(
  app: FastifyInstance,
  config: GatewayConfig,
  supergraph: ReturnType<typeof createSupergraphSource>,
  ssoKeys: ReturnType<typeof createResilientJwks> | undefined,
  clock: Clock,
): void {
  if (ssoKeys)
    app.addReadinessCheck('sso-keys', async () => {
      try {
        await ssoKeys.loaded();
      } catch (error) {
        throw new Error(`the SSO's signing keys could not be fetched yet: ${(error as Error).message}`);
      }
    });
  app.addReadinessCheck(
    'subgraphs',
    subgraphReadiness({
      subgraphs: () =>
        supergraph
          .subgraphs()
          .filter(({ name }) => name !== CACHE_SUBGRAPH)
          .map(({ name, url }) => ({ name, url: config.subgraphUrls[name] ?? url })),
      timeoutMs: config.readinessProbeTimeoutMs,
      cacheMs: config.readinessCacheMs,
      requires: config.readinessRequires,
      ...clock,
    }),
  );
}

export async function buildApp(
  config: GatewayConfig,
  options: GatewayBuildOptions = {},
): Promise<FastifyInstance> {
  const clock: Clock = options.now ? { now: options.now } : {};
  const app = createServer({
    name: 'gateway',
    logLevel: config.logLevel,
    bodyLimit: config.maxBodyBytes,
    http: config.http,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  if (config.corsOrigins.length > 0) await registerCors(app, config.corsOrigins);
  // Observability and resilience (docs/operations.md). The response cache reports
  // each lookup with metrics.cacheLookup('hit' | 'miss' | 'bypass').
  const metrics: GatewayMetrics = createGatewayMetrics({ maxOperations: config.metricsMaxOperations });
  if (config.metricsEnabled)
    registerMetrics(app, metrics, config.metricsToken ? { token: config.metricsToken } : {});
  const pools = createSubgraphPools(config.subgraphConnections);
  app.addHook('onClose', async () => pools.close());
  const supergraph = createSupergraphSource({
    path: config.supergraphPath,
    log: app.log,
    watch: config.supergraphWatch,
  });
  // Apollo's result shaping, compiled once per request instead of interpreted per object.
  const shaping = installCompiledResultShaping();
  if (!shaping.installed) app.log.warn(`result shaping: Apollo's own (${shaping.reason})`);
  // The per-login query cache (cache/plugin.ts): `cache` is answered by a subgraph served
  // in-process; the responses are cached by an Apollo Server plugin.
  const local = cacheSubgraph();
  const queryCache = queryCacheStoreFor(app, config, options, metrics, clock);
  if (!options.queryCacheStore) app.addHook('onClose', async () => queryCache.close());
  const gateway = federatedGateway(app, config, options, {
    supergraph,
    shapingInstalled: shaping.installed,
    local,
    pools,
    metrics,
  });
  const apq = persistedQueries({
    enabled: config.persistedQueries,
    redisUrl: config.redisUrl,
    ttlSeconds: config.apqTtlSeconds,
    maxBytes: config.apqCacheMaxBytes,
    onError: (error, operation) =>
      app.log.warn({ err: error, operation }, 'persisted query store unavailable'),
    ...(options.persistedQueryStore ? { store: options.persistedQueryStore } : {}),
  });
  app.addHook('onClose', async () => apq.close());
  const { verifier, ssoKeys } = tokenVerification(app, config, options, clock);
  const rateLimiter = createRateLimiter({
    perMinute: config.rateLimitPerMinute,
    burst: config.rateLimitBurst,
    leaseMax: config.rateLimitLease,
    keyPrefix: config.rateLimitPrefix,
    redisUrl: config.redisUrl,
    onError: (error) => app.log.warn({ err: error }, 'rate limiter unavailable: requests are allowed'),
    ...clock,
  });
  if (rateLimiter) app.addHook('onClose', async () => rateLimiter.close());
  // Repeated cache hits answered before Apollo Server (engine/front-door.ts).
  const front = createCacheFront({
    store: queryCache,
    verifier,
    ...(rateLimiter ? { rateLimiter } : {}),
    onLookup: (result) => metrics.cacheLookup(result),
    ...(options.onCacheFrontHit ? { onHit: options.onCacheFrontHit } : {}),
    enabled: engineGate().ported,
  });
  const budget = createCostBudget({
    userPerMinute: config.budget.userPerMinute,
    organizationPerMinute: config.budget.organizationPerMinute,
    lease: config.budget.lease,
    prefix: config.budget.prefix,
    redisUrl: config.redisUrl,
    onError: (error) => app.log.warn({ err: error }, 'cost budget unavailable: requests are allowed'),
    ...clock,
  });
  if (budget) app.addHook('onClose', async () => budget.close());
  const apollo = apolloServerFor(
    app,
    config,
    {
      gateway,
      apq,
      metrics,
      queryCache,
      front,
      supergraph,
      budget,
      onIntrospectionWalk: options.onIntrospectionWalk,
    },
    clock,
  );
  await apollo.start();
  app.addHook('onClose', async () => {
    await apollo.stop();
  });

  app.route({
    url: '/graphql',
    method: [...GRAPHQL_METHODS],
    handler: fastifyApolloHandler(apollo, {
      context: withRateLimit(contextFactory(verifier), rateLimiter),
    }),
    onRequest: refuseContentEncoding,
    preHandler: [nestingPreHandler(config.limits), front.preHandler],
    errorHandler: refusedRequestHandler(config.maxBodyBytes),
    onSend: [jsonMediaTypeStatus, front.onSend],
  });
  app.route({ url: '/graphql', method: ['PUT', 'DELETE', 'PATCH'], handler: methodNotAllowed });
  // GraphiQL at /explorer with SSO sign-in (explorer/plugin.ts).
  registerExplorer(app, { explorer: config.explorer, issuer: config.issuer, verifier });
  addReadinessChecks(app, config, supergraph, ssoKeys, clock);
  return app;
}

/**
 * @apollo/gateway has no option for its telemetry: its constructor reads APOLLO_TELEMETRY_DISABLED
 * from the environment, synchronously. The variable is set for that call only and put back, so no
 * other code, nor another gateway built in this process, sees this one's setting.
 */
function withApolloTelemetry<T>(enabled: boolean, construct: () => T): T {
  const before = process.env.APOLLO_TELEMETRY_DISABLED;
  process.env.APOLLO_TELEMETRY_DISABLED = enabled ? 'false' : 'true';
  try {
    return construct();
  } finally {
    if (before === undefined) delete process.env.APOLLO_TELEMETRY_DISABLED;
    else process.env.APOLLO_TELEMETRY_DISABLED = before;
  }
}
