/**
 * vehicle-data: decodeDtcs, decodeVin, decodePlate, alpr, coverage*.
 * buildApp returns the Fastify instance (the manifest names it; runSubgraph listens). Demo rows are
 * written by the manifest's demoData hook, never at start.
 */
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions } from '@fleetgraph/subgraph-kit';
import { VEHICLE_DATA_SCHEMA, migrations } from '../migrations/index';
import type { VehicleDataConfig } from './config';
import { resolvers } from './resolvers/index';
import { createReader, type VehicleDataReader } from './reader';
import { PlateReader } from './domain/alpr/reader';
import { dtcCatalog } from './domain/dtc/catalog';
import { Vpic } from './domain/vin/vpic';
import { SCHEMA_DIR } from './paths';

export { SCHEMA_DIR };

export async function buildApp(
  config: Omit<VehicleDataConfig, 'databaseUrl'> & { databaseUrl: string },
  options: SubgraphBuildOptions = {},
): Promise<FastifyInstance> {
  const vpic = new Vpic({ dir: config.vpicDir });
  const plates = new PlateReader({
    threads: config.alprThreads,
    queueMax: config.alprQueueMax,
    timeBudgetMs: config.alprTimeBudgetMs,
  });
  const codec = new CursorCodec(config.pagingSecret);
  return createSubgraphApp<VehicleDataReader>(
    config,
    {
      dbSchema: VEHICLE_DATA_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      createReader: (knex, user) => createReader({ knex, codec, vpic, plates }, user),
      async onStart(app) {
        app.addHook('onClose', async () => {
          await plates.close();
          await vpic.close();
        });
        dtcCatalog(); // parse the shipped DTC tables (about 50 ms) before the first request
      },
    },
    options,
  );
}
