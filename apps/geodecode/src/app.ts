/**
 * geodecode: offline reverse geocoding (streets and addresses from the geo schema, places from
 * GeoNames, countries from country-coder). buildApp returns the Fastify instance (the manifest
 * names it; runSubgraph listens). The demo streets are loaded by the manifest's demoData hook,
 * never at start.
 */
import type { FastifyInstance } from 'fastify';
import { createSubgraphApp, type SubgraphBuildOptions, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import { GEO_SCHEMA, migrations } from '../migrations/index';
import { placeIndex } from './domain/places';
import { createReader, type GeoReader } from './reader';
import { resolvers } from './resolvers/index';
import { SCHEMA_DIR } from './paths';

export { SCHEMA_DIR };
export type BuildOptions = SubgraphBuildOptions;

export async function buildApp(
  config: SubgraphConfig & { databaseUrl: string },
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  return createSubgraphApp<GeoReader>(
    config,
    {
      dbSchema: GEO_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      createReader: (knex) => createReader({ knex }),
      async onStart(app) {
        // Build the place index now, so the first request does not pay for it.
        const places = placeIndex();
        app.log.debug({ places: places.size }, 'place index ready');
      },
    },
    options,
  );
}
