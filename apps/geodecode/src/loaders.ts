/**
 * Per-request context of the geodecode subgraph. geodecode has no entities to batch (no
 * `__resolveReference`); the place index and country borders are process-wide, immutable data.
 */
import type { Knex } from 'knex';

export interface GeoLoaders {
  knex: Knex;
}

export const createLoaders = (deps: { knex: Knex }): GeoLoaders => ({ knex: deps.knex });
