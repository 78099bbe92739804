/**
 * vehicle-data: decodeDtcs, decodeVin, decodePlate, alpr, coverage*.
 * buildApp returns the Fastify instance; main.ts only reads config, listens and shuts down.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions } from '@fleetgraph/subgraph-kit';
import { VEHICLE_DATA_SCHEMA, migrations } from '../migrations/index';
import type { VehicleDataConfig } from './config';
import { resolvers } from './resolvers/index';
import { seedVehicleData } from './seed';
import { createLoaders, type VehicleDataLoaders } from './services';
import { OcrPool } from './alpr/ocr';
import { dtcCatalog } from './dtc/catalog';
import { Vpic } from './vin/vpic';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'schema');

export interface BuildOptions extends SubgraphBuildOptions {
  /** Fill the coverage tables and plate registry with demo rows when they are empty (default false). */
  seed?: boolean;
}

export async function buildApp(
  config: Omit<VehicleDataConfig, 'databaseUrl'> & { databaseUrl: string },
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const vpic = new Vpic({ dir: config.vpicDir });
  const ocr = new OcrPool(config.ocrWorkers);
  const codec = new CursorCodec(config.pagingSecret);
  return createSubgraphApp<VehicleDataLoaders>(
    config,
    {
      dbSchema: VEHICLE_DATA_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      createLoaders: (knex, user) => createLoaders({ knex, codec, vpic, ocr }, user),
      async onStart(app, knex) {
        app.addHook('onClose', async () => {
          await ocr.close();
          await vpic.close();
        });
        if (options.seed) await seedVehicleData(knex);
        dtcCatalog(); // parse the shipped DTC tables (about 50 ms) before the first request
      },
    },
    options,
  );
}
