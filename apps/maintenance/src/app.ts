/**
 * maintenance: service templates, criticality thresholds, service history, and upcoming work
 * computed from fleet-core's contract (odometer readings, trips). buildApp returns the Fastify
 * instance; main.ts only reads config, listens and shuts down.
 */
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions } from '@fleetgraph/subgraph-kit';
import { ListScopeCache } from '@fleetgraph/visibility';
import { MAINTENANCE_SCHEMA, migrations } from '../migrations/index';
import type { MaintenanceConfig } from './config';
import { createReader, type MaintenanceReader } from './reader';
import { refreshUpcoming } from './data/upcoming-store';
import { resolvers } from './resolvers/index';
import { SCHEMA_DIR } from './paths';

export { SCHEMA_DIR };

export async function buildApp(
  config: MaintenanceConfig & { databaseUrl: string },
  options: SubgraphBuildOptions = {},
): Promise<FastifyInstance> {
  const codec = new CursorCodec(config.pagingSecret);
  const listScopes = new ListScopeCache({ walkFromGroups: config.walkFromGroups });
  return createSubgraphApp<MaintenanceReader>(
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
      createReader: (knex, user) => createReader({ knex, codec, clock: config.clock, listScopes }, user),
      // fleet-core's facts reach the kept upcoming work through this pass (data/upcoming-store.ts):
      // their staleness is bounded by the period plus one pass.
      async onStart(app, knex) {
        if (!config.upcomingRefreshMs) return;
        let running = false;
        const timer = setInterval(() => {
          if (running) return;
          running = true;
          refreshUpcoming(knex, config.clock(), 'all')
            .catch((error) => app.log.error({ err: error }, 'upcoming work refresh failed'))
            .finally(() => (running = false));
        }, config.upcomingRefreshMs);
        timer.unref();
        app.addHook('onClose', async () => clearInterval(timer));
      },
    },
    options,
  );
}
