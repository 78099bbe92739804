/** The command-line tools' database: DATABASE_URL or the embedded server, migrated for fleet and sso. */
import { createKnex, migrateSchema, resolveDatabase, type Knex } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { migrations as fleetMigrations, FLEET_SCHEMA } from '@fleetgraph/fleet-core';
import { migrations as ssoMigrations, SSO_SCHEMA } from '@fleetgraph/sso';

export interface ToolDatabase {
  knex: Knex;
  embedded: boolean;
  close(): Promise<void>;
}

export async function openToolDatabase(
  env: Record<string, string | undefined> = process.env,
): Promise<ToolDatabase> {
  const database = await resolveDatabase({
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir,
    ...(env.EMBEDDED_PG_PORT ? { embeddedPort: Number(env.EMBEDDED_PG_PORT) } : {}),
  });
  const knex = createKnex({ url: database.url, applicationName: 'fleetgraph-seed' });
  const close = async () => {
    await knex.destroy();
    await database.stop();
  };
  try {
    await migrateSchema(knex, FLEET_SCHEMA, fleetMigrations);
    await migrateSchema(knex, SSO_SCHEMA, ssoMigrations);
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { knex, embedded: database.embedded, close };
}
