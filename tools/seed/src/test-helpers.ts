/** Throwaway migrated databases and table counts for the seed tests. */
import { createKnex, createTestDatabase, migrateSchema, type Knex } from '@fleetgraph/db';
import { migrations as fleetMigrations, FLEET_SCHEMA } from '@fleetgraph/fleet-core';
import { migrations as ssoMigrations, SSO_SCHEMA } from '@fleetgraph/sso';
import { COUNTED_TABLES, type TableCounts } from './counts';
import { countRows } from './write';

export interface MigratedDatabase {
  knex: Knex;
  drop(): Promise<void>;
}

export async function migratedDatabase(label: string): Promise<MigratedDatabase> {
  const database = await createTestDatabase(label);
  const knex = createKnex({ url: database.url, pool: { max: 4 } });
  await migrateSchema(knex, FLEET_SCHEMA, fleetMigrations);
  await migrateSchema(knex, SSO_SCHEMA, ssoMigrations);
  return {
    knex,
    async drop() {
      await knex.destroy();
      await database.drop();
    },
  };
}

export async function tableCounts(knex: Knex): Promise<TableCounts> {
  const entries = await Promise.all(
    Object.entries(COUNTED_TABLES).map(async ([key, table]) => [key, await countRows(knex, table)] as const),
  );
  return Object.fromEntries(entries) as unknown as TableCounts;
}
