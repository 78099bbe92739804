/**
 * Each app owns one PostgreSQL schema and its migrations. Migrations are TypeScript modules listed
 * explicitly by the app (no directory scanning relative to the working directory).
 */
import type { Knex } from 'knex';

export interface Migration {
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

export type Migrations = Record<string, Migration>;

class ListMigrationSource implements Knex.MigrationSource<[string, Migration]> {
  constructor(private readonly migrations: Migrations) {}
  async getMigrations() {
    return Object.entries(this.migrations).sort(([a], [b]) => a.localeCompare(b));
  }
  getMigrationName([name]: [string, Migration]) {
    return name;
  }
  async getMigration([, migration]: [string, Migration]) {
    return {
      up: migration.up,
      down: migration.down ?? (async () => Promise.reject(new Error('irreversible migration'))),
    };
  }
}

export type MigrationMode = 'run' | 'wait';

/**
 * `DATABASE_MIGRATIONS`: `run` (the default: a service migrates its own schema at start, as
 * `npm start` does) or `wait` (replicas started together leave migrations to a one-shot job,
 * tools/start/src/prepare-main.ts, and wait until every migration they know is applied).
 */
export function migrationMode(env: Record<string, string | undefined> = process.env): MigrationMode {
  const value = env.DATABASE_MIGRATIONS ?? 'run';
  if (value === 'run' || value === 'wait') return value;
  throw new Error(`DATABASE_MIGRATIONS must be run or wait (got "${value}")`);
}

export interface WaitOptions {
  /** how long to wait for the migrations job (default 5 minutes) */
  timeoutMs?: number;
  intervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The names of `migrations` not yet recorded in the schema's migration table. */
export async function pendingMigrations(
  knex: Knex,
  schema: string,
  migrations: Migrations,
): Promise<string[]> {
  const table = await knex.raw('select to_regclass(?) as t', [`${schema}.knex_migrations`]);
  const done = new Set<string>();
  if (table.rows[0]?.t) {
    const rows = await knex.withSchema(schema).select('name').from('knex_migrations');
    for (const row of rows as { name: string }[]) done.add(row.name);
  }
  return Object.keys(migrations)
    .filter((name) => !done.has(name))
    .sort();
}

/** Resolves once every migration of the list is applied by someone else; throws at the timeout. */
export async function waitForMigrations(
  knex: Knex,
  schema: string,
  migrations: Migrations,
  options: WaitOptions = {},
): Promise<void> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    let pending: string[];
    try {
      pending = await pendingMigrations(knex, schema, migrations);
    } catch {
      // the database is not up yet, or the schema is being created: asked again below
      pending = ['(database not ready)'];
    }
    if (pending.length === 0) return;
    if (now() >= deadline)
      throw new Error(
        `schema ${schema}: migrations still pending (${pending.join(', ')}); is the migrations job running?`,
      );
    await sleep(options.intervalMs ?? 500);
  }
}

export async function migrateSchema(knex: Knex, schema: string, migrations: Migrations): Promise<string[]> {
  if (migrationMode() === 'wait') {
    await waitForMigrations(knex, schema, migrations);
    return [];
  }
  // `create schema if not exists` needs CREATE on the database even when the schema exists: an
  // app connected as its own role (libs/db roles.ts) owns its schema but may not create others.
  const existing = await knex.raw('select 1 from pg_namespace where nspname = ?', [schema]);
  if (existing.rows.length === 0) await knex.raw('create schema if not exists ??', [schema]);
  const [, applied] = (await knex.migrate.latest({
    migrationSource: new ListMigrationSource(migrations),
    schemaName: schema,
    tableName: 'knex_migrations',
  })) as [number, string[]];
  return applied;
}
