/**
 * mobility: fuel and energy transactions, their anomalies (rule engine in detection/) and
 * statistics, contributed to fleet-core's Device, Group and Driver. buildApp returns the Fastify
 * instance; main.ts only reads config, listens and shuts down.
 */
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import { ListScopeCache } from '@fleetgraph/visibility';
import { MOBILITY_SCHEMA, migrations } from '../migrations/index';
import { createReader, type MobilityReader } from './reader';
import { resolvers } from './resolvers/index';
import { SCHEMA_DIR } from './paths';

export { SCHEMA_DIR };

export async function buildApp(
  config: SubgraphConfig & { databaseUrl: string },
  options: SubgraphBuildOptions & { now?: () => Date } = {},
): Promise<FastifyInstance> {
  const codec = new CursorCodec(config.pagingSecret);
  const now = options.now ?? (() => new Date());
  const listScopes = new ListScopeCache({
    now: () => now().getTime(),
    walkFromGroups: config.walkFromGroups,
  });
  return createSubgraphApp<MobilityReader>(
    config,
    {
      dbSchema: MOBILITY_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      createReader: (knex, user) => createReader({ knex, codec, now, listScopes }, user),
    },
    options,
  );
}
