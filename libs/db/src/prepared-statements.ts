/**
 * Named prepared statements for every read a service sends through knex: each distinct SELECT
 * text gets a name derived from its hash, so node-postgres parses it once per connection and
 * PostgreSQL keeps its plan source (and, after five runs, may keep a generic plan) instead of
 * parsing and planning an unnamed statement on every request. Measured on fleet-core's deep
 * page (tools/bench/src/subgraph-engine.ts), planning was 32-72 % of PostgreSQL's time.
 *
 * Bounded: at most `limit` distinct texts are named per process (a text with a varying number of
 * list parameters is a new text; past the bound statements run unnamed as before). Only single
 * SELECT/WITH statements are named (DDL, transactions and multi-statement scripts stay unnamed).
 * A named statement whose result type changed under it (a migration altered a table it reads:
 * PostgreSQL's "cached plan must not change result type") runs again unnamed, and its text is
 * never named again in this process.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { runAbandonable, signalOf } from './abandon';

/** The knex internals this wraps: the pg dialect's `_query(connection, obj)`. */
interface QueryObject {
  sql?: string;
  bindings?: unknown[];
  options?: Record<string, unknown> & { name?: string };
  response?: pg.QueryResult;
}
interface PgDialectClient {
  _query(connection: unknown, obj: QueryObject): Promise<unknown>;
}

const READ = /^\s*(select|with)\b/i;
/** A statement separator followed by more text: a script, which cannot be prepared. */
const SCRIPT = /;\s*\S/;
/** SQLSTATE 0A000 raised where PostgreSQL revalidates a cached plan (whatever lc_messages says). */
const resultTypeChanged = (error: unknown): boolean =>
  error instanceof Error &&
  (error as { code?: string }).code === '0A000' &&
  ((error as { routine?: string }).routine === 'RevalidateCachedQuery' ||
    error.message.includes('cached plan must not change result type'));

export const DEFAULT_PREPARED_STATEMENT_LIMIT = 500;

export function statementName(text: string): string {
  return `fg_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
}

export function isPreparable(text: string): boolean {
  return READ.test(text) && !SCRIPT.test(text);
}

const preparing = new WeakSet<object>();

/** Does this knex instance name its reads (prepareReads)? A transaction's client does not, as with knex's own reads. */
export const isPreparing = (knex: Knex): boolean => preparing.has(knex.client);

/** Names knex's read statements on this instance (see the module comment). */
export function prepareReads(knex: Knex, limit = DEFAULT_PREPARED_STATEMENT_LIMIT): void {
  preparing.add(knex.client);
  const client = knex.client as unknown as PgDialectClient;
  const run = client._query.bind(client);
  const names = new Map<string, string>();
  const refused = new Set<string>();

  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known || refused.has(text) || names.size >= limit || !isPreparable(text)) return known;
    const name = statementName(text);
    names.set(text, name);
    return name;
  };

  client._query = async (connection, obj) => {
    const name = obj.sql && !obj.options?.name ? nameOf(obj.sql) : undefined;
    if (!name) return run(connection, obj);
    try {
      // What knex's _query does (the answer on obj.response), without its config copy.
      if (!obj.options) {
        obj.response = await submit(connection as pg.ClientBase, name, obj.sql!, obj.bindings ?? []);
        return obj;
      }
      return await run(connection, { ...obj, options: { ...obj.options, name } });
    } catch (error) {
      if (!resultTypeChanged(error)) throw error;
      names.delete(obj.sql!);
      refused.add(obj.sql!);
      return run(connection, obj);
    }
  };
}

/**
 * One statement on a connection, named when `name` is given. node-postgres copies a query config
 * object property by property (getOwnPropertyDescriptors), a visible share of a subgraph's CPU
 * on its cheapest query; a Query built from the text takes no copy.
 */
function submit(connection: pg.ClientBase, name: string | undefined, text: string, values: unknown[]) {
  return new Promise<pg.QueryResult>((resolve, reject) => {
    const query = new pg.Query(text, values, (error: Error | undefined, result: pg.QueryResult) =>
      error ? reject(error) : resolve(result),
    );
    // Read when the query is sent (pg's types do not list it).
    if (name) (query as { name?: string }).name = name;
    void connection.query(query);
  });
}

/**
 * One statement on a pooled connection, named when `name` is given (parsed once per connection),
 * announced on knex's 'query' event like knex's own. A named statement whose result type a
 * migration changed runs again unnamed. Shared by preparedQuery and sqlTemplate.
 */
export async function runStatement<R>(
  knex: Knex,
  name: string | undefined,
  text: string,
  values: unknown[],
): Promise<R[]> {
  const signal = signalOf(knex);
  knex.emit('query', { sql: text, bindings: values });
  const connection = (await knex.client.acquireConnection()) as pg.PoolClient;
  const cancel = () => knex.client.cancelQuery(connection) as Promise<unknown>;
  try {
    try {
      return (await runAbandonable(signal, cancel, () => submit(connection, name, text, values))).rows as R[];
    } catch (error) {
      if (!name || !resultTypeChanged(error)) throw error;
      return (await runAbandonable(signal, cancel, () => submit(connection, undefined, text, values)))
        .rows as R[];
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
