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

/**
 * Runs one statement as a named prepared statement on a pooled connection: PostgreSQL parses it
 * once per connection and may reuse its plan, where knex's statements are parsed and planned on
 * every call. For hot statements only; `text` uses $1, $2... placeholders. Listeners of knex's
 * 'query' event (onQuery) see it like any other statement.
 */
export async function preparedQuery<R = Record<string, unknown>>(
  knex: Knex,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  knex.emit('query', { sql: statement.text, bindings: values });
  const connection = (await knex.client.acquireConnection()) as pg.PoolClient;
  try {
    const result = await connection.query({ name: statement.name, text: statement.text, values });
    return result.rows as R[];
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
