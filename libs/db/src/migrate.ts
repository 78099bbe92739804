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

export async function migrateSchema(knex: Knex, schema: string, migrations: Migrations): Promise<string[]> {
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
