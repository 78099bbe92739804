/**
 * fleet-core: accounts, groups, devices, vehicles (and later drivers, trips, alerts...).
 * buildApp returns the Fastify instance; main.ts only reads config, listens and shuts down.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import { createTokenVerifier } from '@fleetgraph/auth';
import { createKnex, migrateSchema, ping } from '@fleetgraph/db';
import { CursorCodec } from '@fleetgraph/paging';
import { createServer } from '@fleetgraph/service-kit';
import { loadTypeDefs, registerSubgraph, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import { FLEET_SCHEMA, migrations } from '../migrations/index';
import { createLoaders, type FleetLoaders } from './loaders';
import { resolvers } from './resolvers/index';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'schema');

export interface BuildOptions {
  /** Key resolver instead of the SSO's JWKS URL (tests). */
  jwks?: JWTVerifyGetKey;
  /** Called for every SQL statement (tests count them). */
  onQuery?: (sql: string) => void;
  /** Run migrations at start (default true). */
  migrate?: boolean;
}

export async function buildApp(config: SubgraphConfig & { databaseUrl: string }, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createServer({ name: config.name, logLevel: config.logLevel });
  const knex = createKnex({ url: config.databaseUrl, applicationName: config.name, ...(options.onQuery ? { onQuery: options.onQuery } : {}) });
  app.addHook('onClose', async () => knex.destroy());
  if (options.migrate !== false) await migrateSchema(knex, FLEET_SCHEMA, migrations);

  const verifier = createTokenVerifier({ issuer: config.issuer, audience: config.audience, jwks: options.jwks ?? config.jwksUrl });
  const codec = new CursorCodec(config.pagingSecret);
  app.addReadinessCheck('database', () => ping(knex));

  await registerSubgraph<FleetLoaders>(app, {
    typeDefs: loadTypeDefs(SCHEMA_DIR),
    resolvers,
    verifier,
    createLoaders: (user) => createLoaders({ knex, codec }, user),
  });
  return app;
}
