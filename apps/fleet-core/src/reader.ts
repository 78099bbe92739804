import type { Knex } from 'knex';
import { relationLoaders, type CursorCodec } from '@fleetgraph/paging';
import type { UserContext, Viewer } from '@fleetgraph/auth';
import type { ListScopeCache } from '@fleetgraph/visibility';
import { lazyFields } from '@fleetgraph/subgraph-kit';
import { entityLoaderMakers } from './data/entities';
import { summaryLoaderMakers } from './data/summaries';
import { relations, type RelationName } from './data/relation-specs';
import { serviceLoaders } from './data/services/loaders';

export interface FleetResources {
  knex: Knex;
  codec: CursorCodec;
  /** How root lists read visibility, per account (kept a minute per process). */
  listScopes: ListScopeCache;
}

type ReaderArgs = FleetResources & { viewer: Viewer };

/**
 * The per-request reader: entity lookups, summaries, nested pages and the services areas, batched,
 * for one viewer. Each is made on first use: a request allocates one object, and a loader only
 * when one of its fields is resolved.
 */
const fleetReader = lazyFields<ReaderArgs>()({
  ...entityLoaderMakers,
  ...summaryLoaderMakers,
  relations: ({ knex, codec, viewer }: ReaderArgs) =>
    relationLoaders<RelationName>(knex, codec, viewer, relations),
  services: ({ knex, codec, viewer }: ReaderArgs) => serviceLoaders(knex, codec, viewer),
  /** How root lists of devices read visibility for this viewer (ListScopeCache). */
  listScope: ({ knex, viewer, listScopes }: ReaderArgs) => listScopes.scopeOf(knex, viewer),
});

export function createReader(resources: FleetResources, user: UserContext) {
  return fleetReader({ ...resources, viewer: user.uid });
}

export type FleetReader = ReturnType<typeof createReader>;
