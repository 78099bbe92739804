/**
 * geodecode: offline reverse geocoding (streets and addresses from the geo schema, places from
 * GeoNames, countries from country-coder). buildApp returns the Fastify instance; main.ts only
 * reads config, listens and shuts down.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import { createTokenVerifier } from '@fleetgraph/auth';
import { createKnex, migrateSchema, ping } from '@fleetgraph/db';
import { createServer } from '@fleetgraph/service-kit';
import { loadTypeDefs, registerSubgraph, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import { GEO_SCHEMA, migrations } from '../migrations/index';
import { seedStreets } from './demo/seed';
import { placeIndex } from './geo/places';
import { createLoaders, type GeoLoaders } from './loaders';
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

export async function buildApp(
  config: SubgraphConfig & { databaseUrl: string; demoStreets?: boolean },
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = createServer({ name: config.name, logLevel: config.logLevel });
  const knex = createKnex({ url: config.databaseUrl, applicationName: config.name, ...(options.onQuery ? { onQuery: options.onQuery } : {}) });
  app.addHook('onClose', async () => knex.destroy());
  if (options.migrate !== false) await migrateSchema(knex, GEO_SCHEMA, migrations);
  if (config.demoStreets) {
    const seeded = await seedStreets(knex);
    if (seeded) app.log.info(seeded, 'geo tables were empty: loaded the demo streets');
  }
  // Build the place index now, so the first request does not pay for it.
  const places = placeIndex();
  app.log.debug({ places: places.size }, 'place index ready');

  const verifier = createTokenVerifier({ issuer: config.issuer, audience: config.audience, jwks: options.jwks ?? config.jwksUrl });
  app.addReadinessCheck('database', () => ping(knex));

  await registerSubgraph<GeoLoaders>(app, {
    typeDefs: loadTypeDefs(SCHEMA_DIR),
    resolvers,
    verifier,
    createLoaders: () => createLoaders({ knex }),
  });
  return app;
}
