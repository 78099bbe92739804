/**
 * dvir: driver vehicle inspection reports, defects and their files. buildApp returns the Fastify
 * instance (GraphQL at /graphql, signed file downloads at /files/:id); main.ts only runs it.
 */
import type { FastifyInstance } from 'fastify';
import { CursorCodec } from '@fleetgraph/paging';
import { createSubgraphApp, type SubgraphBuildOptions } from '@fleetgraph/subgraph-kit';
import { ListScopeCache } from '@fleetgraph/visibility';
import { DVIR_SCHEMA, migrations } from '../migrations/index';
import type { DvirConfig } from './config';
import { fileServiceFor } from './data/files/index';
import { createReader, type DvirReader } from './reader';
import { resolvers } from './resolvers/index';
import { SCHEMA_DIR } from './paths';

export { SCHEMA_DIR };

export async function buildApp(
  config: DvirConfig & { databaseUrl: string },
  options: SubgraphBuildOptions = {},
): Promise<FastifyInstance> {
  const codec = new CursorCodec(config.pagingSecret);
  const files = fileServiceFor(config);
  const listScopes = new ListScopeCache({ walkFromGroups: config.walkFromGroups });
  return createSubgraphApp<DvirReader>(
    config,
    {
      dbSchema: DVIR_SCHEMA,
      migrations,
      schemaDir: SCHEMA_DIR,
      resolvers,
      createReader: (knex, user) => createReader({ knex, codec, files, listScopes }, user),
      // Every answer carries its item's translation map: a page of reports repeats a few dozen
      // maps about a thousand times. Parsed once per text, shared frozen (libs/db repeated-json.ts).
      repeatedJson: true,
      async onStart(app, knex) {
        files.registerRoute(app, knex);
      },
    },
    options,
  );
}
