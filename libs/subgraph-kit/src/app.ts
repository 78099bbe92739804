/**
 * createSubgraphApp: everything a domain subgraph's buildApp shares — a server with the platform
 * conventions, a knex pool closed with the app, the app's schema migrated, token verification,
 * a database readiness check, and the GraphQL endpoint. A subgraph passes only what is its own.
 * Requests read from the read pool (DATABASE_READ_URL, a standby) when one is configured;
 * everything else uses the primary.
 */
import type { FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import {
  createRevocationList,
  createTokenVerifier,
  type RevocationList,
  type UserContext,
} from '@fleetgraph/auth';
import {
  createDatabasePools,
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  knexFor,
  migrateSchema,
  ping,
  SERVICE_DATABASE_TIMEOUTS,
  type Knex,
  type Migrations,
} from '@fleetgraph/db';
import { createServer, type ServerOptions } from '@fleetgraph/service-kit';
import type { SubgraphConfig } from './config';
import { loadTypeDefs } from './schema';
import { registerSubgraph, type Resolvers } from './subgraph';

export interface SubgraphBuildOptions {
  /** Key resolver instead of the SSO's JWKS URL (tests). */
  jwks?: JWTVerifyGetKey;
  /** Called for every SQL statement (tests count them). */
  onQuery?: (sql: string) => void;
  /** The event loop's recent delay in ms, for load shedding (tests pass their own; default measured). */
  eventLoopDelay?: () => number;
  /** Run migrations at start (default true). */
  migrate?: boolean;
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logStream?: ServerOptions['logStream'];
  /**
   * The list of revoked access tokens (the one-process start passes its shared one). Default: the
   * SSO's revocations followed in this subgraph's database, plus Redis when REDIS_URL is set.
   */
  revocations?: RevocationList;
}

export interface SubgraphDefinition<L> {
  /** PostgreSQL schema owned by the subgraph, and its migrations */
  dbSchema: string;
  migrations: Migrations;
  /** folder of the subgraph's *.graphql files */
  schemaDir: string;
  resolvers: Resolvers<L>;
  /**
   * A request's reader. `knex` is the read pool (a standby when DATABASE_READ_URL is set): never
   * write through it.
   */
  createReader(knex: Knex, user: UserContext): L;
  /** json/jsonb columns whose texts repeat across rows are parsed once per text (KnexOptions.repeatedJson). */
  repeatedJson?: boolean;
  /** PostgreSQL settings of the subgraph's pooled connections (KnexOptions.sessionSettings). */
  databaseSettings?: Readonly<Record<string, string>>;
  /** Work to do once the database is migrated (demo data, warm caches...); `knex` is the primary. */
  onStart?(app: FastifyInstance, knex: Knex): Promise<void>;
}

export async function createSubgraphApp<L>(
  config: SubgraphConfig & { databaseUrl: string },
  definition: SubgraphDefinition<L>,
  options: SubgraphBuildOptions = {},
): Promise<FastifyInstance> {
  const app = createServer({
    isUnavailable: isDatabaseUnavailable,
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    name: config.name,
    logLevel: config.logLevel,
    ...(config.http ? { http: config.http } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  // Requests read through `reads` (DATABASE_READ_URL, a standby, when set); migrations, onStart
  // and readiness of the primary use `knex`; the revocation list follows the primary.
  const pools = createDatabasePools({
    url: config.databaseUrl,
    readUrl: config.databaseReadUrl,
    applicationName: config.name,
    timeouts: config.databaseTimeouts ?? SERVICE_DATABASE_TIMEOUTS,
    preparedStatements: config.preparedStatements ?? true,
    ...(definition.repeatedJson ? { repeatedJson: true } : {}),
    ...(definition.databaseSettings ? { sessionSettings: definition.databaseSettings } : {}),
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
  const { primary: knex, reads } = pools;
  app.addHook('onClose', async () => pools.destroy());
  // A direct call to the subgraph with a revoked token is refused like one through the gateway.
  // Revocations are followed from the database the subgraph already uses (the SSO's published
  // view, loaded at start, then LISTEN/NOTIFY), plus Redis when set.
  const revocations =
    options.revocations ??
    createRevocationList({
      databaseUrl: config.databaseUrl,
      ...(config.redisUrl ? { redisUrl: config.redisUrl, keyPrefix: config.revocationPrefix } : {}),
      cacheMs: config.revocationCacheMs,
      onError: (error, operation) => app.log.warn({ err: error, operation }, 'revocation list unavailable'),
    });
  if (revocations && !options.revocations) app.addHook('onClose', async () => revocations.close());
  try {
    if (options.migrate !== false) await migrateSchema(knex, definition.dbSchema, definition.migrations);
    await definition.onStart?.(app, knex);
    app.addReadinessCheck('database', () => ping(knex));
    if (pools.separateReads) app.addReadinessCheck('database-reads', () => ping(reads));
    await registerSubgraph<L>(app, {
      typeDefs: loadTypeDefs(definition.schemaDir),
      resolvers: definition.resolvers,
      verifier: createTokenVerifier({
        issuer: config.issuer,
        audience: config.audience,
        jwks: options.jwks ?? config.jwksUrl,
        ...(revocations ? { isRevoked: (jti: string) => revocations.isRevoked(jti) } : {}),
      }),
      createReader: (user, signal) => definition.createReader(knexFor(reads, signal), user),
      ...(config.limits ? { limits: config.limits } : {}),
      ...(config.overload ? { overload: config.overload } : {}),
      ...(options.eventLoopDelay ? { eventLoopDelay: options.eventLoopDelay } : {}),
      ...(config.gatewaySecret ? { gatewaySecret: config.gatewaySecret } : {}),
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
