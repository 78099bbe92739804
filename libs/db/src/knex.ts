import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// bigint (int8) counts come back as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// Keep timestamps as Date (default) and numeric as string -> parse to float where we use it.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number.parseFloat(value));

export type { Knex };

export interface KnexOptions {
  url: string;
  pool?: { min?: number; max?: number };
  /** Called for every SQL statement sent (used by tests that count statements). */
  onQuery?: (sql: string) => void;
  applicationName?: string;
}

export function createKnex(options: KnexOptions): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: options.url, application_name: options.applicationName ?? 'fleetgraph' },
    pool: { min: options.pool?.min ?? 0, max: options.pool?.max ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
  if (options.onQuery) {
    const onQuery = options.onQuery;
    knex.on('query', (query: { sql: string }) => onQuery(query.sql));
  }
  return knex;
}

/** Fails when the database cannot answer; used by readiness checks. */
export async function ping(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}
