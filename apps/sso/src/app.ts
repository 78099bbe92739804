/**
 * The SSO: an OAuth 2.0 authorization server (first cut: password and refresh-token grants,
 * JWKS, user profile). buildApp returns the Fastify instance; main.ts only reads config,
 * listens and shuts down.
 */
import type { FastifyInstance } from 'fastify';
import { createKnex, migrateSchema, ping } from '@fleetgraph/db';
import { createServer } from '@fleetgraph/service-kit';
import { migrations, SSO_SCHEMA } from '../migrations/index';
import type { SsoConfig } from './config';
import { ensureSigningKey, loadKeyStore } from './keys';
import type { OAuthContext } from './oauth/context';
import { decoyHash } from './passwords';
import { jwksRoutes } from './routes/jwks';
import { tokenRoutes } from './routes/token';
import { usersMeRoutes } from './routes/users-me';

export interface BuildOptions {
  /** Called for every SQL statement (tests count them). */
  onQuery?: (sql: string) => void;
}

export async function buildApp(config: SsoConfig & { databaseUrl: string }, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createServer({ name: config.name, logLevel: config.logLevel });
  const knex = createKnex({ url: config.databaseUrl, applicationName: config.name, ...(options.onQuery ? { onQuery: options.onQuery } : {}) });
  app.addHook('onClose', async () => knex.destroy());
  try {
    await migrateSchema(knex, SSO_SCHEMA, migrations);
    await ensureSigningKey(knex);
    const keys = await loadKeyStore(knex);
    // Computed now, so the first unknown-user login costs no more than any other.
    await decoyHash();

    const ctx: OAuthContext = { knex, keys, config };
    app.addReadinessCheck('database', () => ping(knex));
    // Each route family is its own encapsulated plugin with its own error handling.
    await app.register(async (scope) => tokenRoutes(scope, ctx));
    await app.register(async (scope) => usersMeRoutes(scope, ctx));
    await app.register(async (scope) => jwksRoutes(scope, keys));
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}
