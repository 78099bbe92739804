/**
 * Per-request context of the geodecode subgraph. geodecode has no entities to batch (no
 * `__resolveReference`); the place index and country borders are process-wide, immutable data.
 */
import type { Knex } from 'knex';

export interface GeoReader {
  knex: Knex;
}

export const createReader = (deps: { knex: Knex }): GeoReader => ({ knex: deps.knex });
