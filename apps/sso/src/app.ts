/**
 * The SSO: an OAuth 2.0 authorization server (password, authorization-code and refresh-token
 * grants; sign-in and consent pages; application registration pages; discovery, JWKS,
 * revocation, introspection; user profile).
 * buildApp returns the Fastify instance; main.ts only reads config, listens and shuts down.
 */
import type { FastifyInstance } from 'fastify';
import { createRevocationList, type RevocationList } from '@fleetgraph/auth';
import {
  createKnex,
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  SERVICE_DATABASE_TIMEOUTS,
  migrateSchema,
  ping,
  type Knex,
} from '@fleetgraph/db';
import { createServer } from '@fleetgraph/service-kit';
import { migrations, SSO_SCHEMA } from '../migrations/index';
import type { SsoConfig } from './config';
import { purgeExpired } from './data/purge';
import { createRotationBatcher } from './data/refresh-rotation';
import { createApplicationCache } from './data/application-cache';
import { keyCipherOf } from './key-encryption';
import { ensureSigningKey, loadKeyStore, sealStoredKeys } from './keys';
import type { OAuthContext } from './oauth/context';
import { decoyHash } from './passwords';
import { applicationRoutes } from './routes/applications';
import { authorizeRoutes } from './routes/authorize';
import { discoveryRoutes } from './routes/discovery';
import { introspectRoutes } from './routes/introspect';
import { jwksRoutes } from './routes/jwks';
import { revokeRoutes } from './routes/revoke';
import { tokenRoutes } from './routes/token';
import { usersMeRoutes } from './routes/users-me';

export interface BuildOptions {
  /** Called for every SQL statement (tests count them). */
  onQuery?: (sql: string) => void;
  /**
   * Where revoked access-token ids are published for the gateway. Default: an in-memory list
   * (one process); main.ts passes a Redis one when REDIS_URL is set. Closed with the app only
   * when created here.
   */
  revocations?: RevocationList;
  /** Called when another process's change to an application reached this SSO's client cache. */
  onApplicationChange?: (clientId: string) => void;
  /** How progressive sign-in delays wait (default a timer; tests record them instead). */
  sleep?: (ms: number) => Promise<void>;
}

export async function buildApp(
  config: SsoConfig & { databaseUrl: string },
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = createServer({
    // Its own 404, 405 and unhandled errors in RFC 6749's words, like every other SSO error.
    errorStyle: 'oauth',
    isUnavailable: isDatabaseUnavailable,
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    name: config.name,
    logLevel: config.logLevel,
    http: config.http,
    // Trust the nearest N proxies' X-Forwarded-For entries (proxy-addr's hop-count semantics).
    ...(config.trustProxyHops > 0
      ? { fastify: { trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops } }
      : {}),
  });
  const knex = createKnex({
    url: config.databaseUrl,
    applicationName: config.name,
    timeouts: config.databaseTimeouts ?? SERVICE_DATABASE_TIMEOUTS,
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
  const revocations = options.revocations ?? createRevocationList();
  app.addHook('onClose', async () => {
    if (!options.revocations) await revocations.close();
    await knex.destroy();
  });
  try {
    await migrateSchema(knex, SSO_SCHEMA, migrations);
    const cipher = keyCipherOf(config);
    if (cipher) await sealStoredKeys(knex, cipher);
    await ensureSigningKey(knex, cipher);
    const keys = await loadKeyStore(knex, {
      retentionSeconds: config.accessTokenTtl,
      ...(cipher ? { cipher } : {}),
    });
    // Computed now, so the first unknown-user login costs no more than any other.
    await decoyHash();

    const rotations = createRotationBatcher(knex, {
      refreshTtlSeconds: config.refreshTokenTtl,
      onError: (error) => app.log.warn({ err: error }, 'refresh rotation batch failed; retried one by one'),
    });
    const applications = createApplicationCache(knex, {
      databaseUrl: config.databaseUrl,
      ...(options.onApplicationChange ? { onAnnounced: options.onApplicationChange } : {}),
    });
    app.addHook('onClose', async () => applications.close());
    const ctx: OAuthContext = {
      knex,
      keys,
      config,
      revocations,
      rotations,
      log: app.log,
      applications,
      ...(options.sleep ? { sleep: options.sleep } : {}),
    };
    app.addReadinessCheck('database', () => ping(knex));
    schedulePurge(app, knex, config);
    // Each route family is its own encapsulated plugin with its own error handling.
    await app.register(async (scope) => tokenRoutes(scope, ctx));
    await app.register(async (scope) => revokeRoutes(scope, ctx));
    await app.register(async (scope) => introspectRoutes(scope, ctx));
    await app.register(async (scope) => authorizeRoutes(scope, ctx));
    await app.register(async (scope) => applicationRoutes(scope, ctx));
    await app.register(async (scope) => usersMeRoutes(scope, ctx));
    await app.register(async (scope) => jwksRoutes(scope, keys));
    await app.register(async (scope) => discoveryRoutes(scope, config));
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}

/** Removes expired records every purgeIntervalSeconds (data/purge.ts); a failure is logged. */
function schedulePurge(app: FastifyInstance, knex: Knex, config: SsoConfig): void {
  if (config.purgeIntervalSeconds === 0) return;
  const run = async () => {
    try {
      const removed = await purgeExpired(knex, { auditRetentionDays: config.auditRetentionDays });
      app.log.info({ removed }, 'expired records removed');
    } catch (error) {
      app.log.warn({ err: error }, 'could not remove expired records');
    }
  };
  const timer = setInterval(() => void run(), config.purgeIntervalSeconds * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
