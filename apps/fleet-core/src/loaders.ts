import type { Knex } from 'knex';
import type { CursorCodec } from '@fleetgraph/paging';
import type { UserContext } from '@fleetgraph/auth';
import { entityLoaders } from './data/entities';
import { relationLoaders } from '@fleetgraph/paging';
import { summaryLoaders } from './data/summaries';
import { relations, type RelationName } from './data/relation-specs';
import { serviceLoaders } from './services/loaders';

export interface FleetServices {
  knex: Knex;
  codec: CursorCodec;
}

/** Per-request loaders: entity lookups and nested pages, batched, for one viewer. */
export function createLoaders(services: FleetServices, user: UserContext) {
  const { knex, codec } = services;
  return {
    ...entityLoaders(knex, user.uid),
    ...summaryLoaders(knex),
    relations: relationLoaders<RelationName>(knex, codec, user.uid, relations),
    services: serviceLoaders(knex, codec, user.uid),
    knex,
    codec,
    viewer: user.uid,
  };
}

export type FleetLoaders = ReturnType<typeof createLoaders>;
