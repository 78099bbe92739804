/** The command-line tools' database: DATABASE_URL or the embedded server, every schema migrated. */
import { createKnex, resolveDatabase, type Knex } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { migrateAll } from './orchestrate';

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
    await migrateAll(knex, await loadSubgraphManifests());
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { knex, embedded: database.embedded, close };
}
