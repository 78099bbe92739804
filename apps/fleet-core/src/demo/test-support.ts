/** Throwaway databases with the fleet schema migrated, for the demo and import tests. */
import { createKnex, createTestDatabase, migrateSchema, type Knex } from '@fleetgraph/db';
import { FLEET_SCHEMA, migrations } from '../../migrations/index';

export interface FleetDatabase {
  knex: Knex;
  drop(): Promise<void>;
}

export async function fleetDatabase(label: string): Promise<FleetDatabase> {
  const database = await createTestDatabase(label);
  const knex = createKnex({ url: database.url, pool: { max: 4 } });
  await migrateSchema(knex, FLEET_SCHEMA, migrations);
  return {
    knex,
    async drop() {
      await knex.destroy();
      await database.drop();
    },
  };
}
