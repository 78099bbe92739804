/**
 * maintenance: service templates, criticality thresholds, service history, and upcoming work
 * computed from fleet-core's contract (odometer readings, trips). buildApp returns the Fastify
 * instance; main.ts only reads config, listens and shuts down.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions } from '@fleetgraph/subgraph-kit';
import { MAINTENANCE_SCHEMA, migrations } from '../migrations/index';
import type { MaintenanceConfig } from './config';
import { createLoaders, type MaintenanceLoaders } from './loaders';
import { resolvers } from './resolvers/index';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'schema');

export async function buildApp(
  config: MaintenanceConfig & { databaseUrl: string },
  options: SubgraphBuildOptions = {},
): Promise<FastifyInstance> {
  const codec = new CursorCodec(config.pagingSecret);
  return createSubgraphApp<MaintenanceLoaders>(
    config,
    {
      dbSchema: MAINTENANCE_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      // Upcoming work reads fleet-core's contract through index nested loops; without table
      // statistics (autovacuum off, or right after a restore) the planner's estimates are large
      // enough to JIT-compile them, which costs far more than the statement itself.
      databaseSettings: { jit: 'off' },
      createLoaders: (knex, user) => createLoaders({ knex, codec, clock: config.clock }, user),
    },
    options,
  );
}
