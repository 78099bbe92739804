import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { cancelAbandonedStatements } from './abandon';
import { prepareReads, runStatement } from './prepared-statements';
import { repeatedJsonTypes } from './repeated-json';
import { installTimestampParser } from './timestamps';

// bigint (int8) counts come back as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// numeric as a float where we use it.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number.parseFloat(value));
// timestamptz stays a Date, read by position instead of by regular expressions (timestamps.ts).
installTimestampParser();

export type { Knex };

/** Connections a pool opens at most unless told (`KnexOptions.pool.max`). */
export const DEFAULT_POOL_MAX = 10;

export interface KnexOptions {
  url: string;
  pool?: { min?: number; max?: number };
  /** Called for every SQL statement sent (used by tests that count statements). */
  onQuery?: (sql: string) => void;
  applicationName?: string;
  /**
   * Bounds for a service's requests (none by default: seeds, imports and migrations may run
   * long). `statementMs`: PostgreSQL's statement_timeout, plus a client-side query timeout 1 s
   * above it, since a frozen server never cancels its own statements; `connectMs`: opening a
   * connection; `acquireMs`: waiting for a pooled one (default 10 s).
   */
  timeouts?: DatabaseTimeouts;
  /**
   * Name read statements so PostgreSQL parses them once per connection (prepared-statements.ts):
   * `true` for the default bound of distinct texts, or the bound. Services turn it on; scripts,
   * seeds and migrations do not need it.
   */
  preparedStatements?: boolean | number;
  /**
   * json/jsonb values repeat across rows (translation maps copied onto every answer): parse each
   * distinct text once and share it, deeply frozen (repeated-json.ts). Off by default.
   */
  repeatedJson?: boolean;
  /**
   * PostgreSQL settings of every pooled connection, sent at connect (the startup packet's
   * `options`, as `-c name=value`, added to the URL's own): no extra statement, no transaction
   * to scope them.
   */
  sessionSettings?: Readonly<Record<string, string>>;
}

export interface DatabaseTimeouts {
  statementMs?: number;
  connectMs?: number;
  acquireMs?: number;
}

/** The bounds every service uses unless configured: no request waits on the database longer. */
export const SERVICE_DATABASE_TIMEOUTS = { statementMs: 5_000, connectMs: 3_000, acquireMs: 5_000 } as const;

export function createKnex(options: KnexOptions): Knex {
  const timeouts = options.timeouts ?? {};
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: options.sessionSettings
        ? withSessionSettings(options.url, options.sessionSettings)
        : options.url,
      application_name: options.applicationName ?? 'fleetgraph',
      ...(timeouts.statementMs
        ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + 1_000 }
        : {}),
      ...(timeouts.connectMs ? { connectionTimeoutMillis: timeouts.connectMs } : {}),
      ...(options.repeatedJson ? { types: repeatedJsonTypes() } : {}),
    },
    pool: { min: options.pool?.min ?? 0, max: options.pool?.max ?? DEFAULT_POOL_MAX },
    acquireConnectionTimeout: timeouts.acquireMs ?? 10_000,
  });
  if (options.preparedStatements)
    prepareReads(
      knex,
      typeof options.preparedStatements === 'number' ? options.preparedStatements : undefined,
    );
  cancelAbandonedStatements(knex);
  if (options.onQuery) {
    const onQuery = options.onQuery;
    knex.on('query', (query: { sql: string }) => onQuery(query.sql));
  }
  return knex;
}

const SETTING_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$/;
const SETTING_VALUE = /^[A-Za-z0-9_.:+-]+$/;

/**
 * The startup packet's `options` for these settings (`-c jit=off -c work_mem=8MB`). Names and
 * values are checked, not escaped: a space or quote would split or change the option list.
 */
export function startupOptions(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!SETTING_NAME.test(name)) throw new Error(`invalid PostgreSQL setting name: ${name}`);
      if (!SETTING_VALUE.test(value))
        throw new Error(`invalid value for PostgreSQL setting ${name}: ${value}`);
      return `-c ${name}=${value}`;
    })
    .join(' ');
}

/**
 * The URL with these settings added to its startup `options`. In the URL rather than beside it:
 * node-postgres lets a URL's `options=` replace the configured ones whole, so a deployer's
 * `?options=-c search_path=...` silently dropped a subgraph's settings. The URL's own options
 * come last, so for a setting both name the deployer's value wins.
 */
export function withSessionSettings(url: string, settings: Readonly<Record<string, string>>): string {
  const ours = startupOptions(settings);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('the database URL cannot take session settings: it is not a URL');
  }
  const theirs = parsed.searchParams.get('options');
  parsed.searchParams.set('options', theirs ? `${ours} ${theirs}` : ours);
  return parsed.toString();
}

/** Fails when the database cannot answer; used by readiness checks. */
export async function ping(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}

/**
 * Runs one statement as a named prepared statement on a pooled connection: PostgreSQL parses it
 * once per connection and may reuse its plan, where knex's statements are parsed and planned on
 * every call. For hot statements only; `text` uses $1, $2... placeholders. Listeners of knex's
 * 'query' event (onQuery) see it like any other statement; a migration that changed its result
 * type makes it run again unnamed (runStatement, shared with sqlTemplate).
 */
export function preparedQuery<R = Record<string, unknown>>(
  knex: Knex,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  return runStatement<R>(knex, statement.name, statement.text, values);
}
