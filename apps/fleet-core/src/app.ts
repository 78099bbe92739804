/**
 * fleet-core: accounts, groups, devices, vehicles (and later drivers, trips, alerts...).
 * buildApp returns the Fastify instance; main.ts only reads config, listens and shuts down.
 */
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import { ListScopeCache } from '@fleetgraph/visibility';
import { FLEET_SCHEMA, migrations } from '../migrations/index';
import { createReader, type FleetReader } from './reader';
import { resolvers } from './resolvers/index';
import { SCHEMA_DIR } from './paths';

export { SCHEMA_DIR };
export type BuildOptions = SubgraphBuildOptions;

export async function buildApp(
  config: SubgraphConfig & { databaseUrl: string },
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const codec = new CursorCodec(config.pagingSecret);
  const listScopes = new ListScopeCache({ walkFromGroups: config.walkFromGroups });
  return createSubgraphApp<FleetReader>(
    config,
    {
      dbSchema: FLEET_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      createReader: (knex, user) => createReader({ knex, codec, listScopes }, user),
    },
    options,
  );
}
