/**
 * A subgraph's `src/main.ts` in one line: `await runSubgraph(manifest)`. Reads and validates the
 * environment, finds the database (DATABASE_URL, else the embedded server), migrates the
 * subgraph's dependencies and its own schema (the app does its own), listens, and closes
 * everything on SIGINT/SIGTERM.
 */
import { migrateSchema, createKnex, resolveDatabase, type Knex } from '@fleetgraph/db';
import { dataDir, onShutdown } from '@fleetgraph/service-kit';
import type { Env, SubgraphManifest } from './manifest';
import { dependencyManifest } from './dependency-manifest';

export async function runSubgraph(manifest: SubgraphManifest<any>, env: Env = process.env): Promise<void> {
  const config = manifest.loadConfig(env);
  const database = await resolveDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir,
  });
  await migrateDependencies(database.url, manifest);
  const app = await manifest.buildApp({ ...config, databaseUrl: database.url });
  await app.listen({ port: config.port, host: config.host });
  onShutdown(async () => {
    await app.close();
    await database.stop();
  });
}

/**
 * The contracts a subgraph reads exist before it starts: a dependency whose published contract
 * schemas are all there is left alone (it migrates itself; and when each app connects as its own
 * role, this one may not touch the dependency's schema), else it is migrated here.
 */
async function migrateDependencies(databaseUrl: string, manifest: SubgraphManifest<any>): Promise<void> {
  if (!manifest.dependsOn?.length) return;
  const knex = createKnex({ url: databaseUrl });
  try {
    for (const name of manifest.dependsOn) {
      const dependency = await dependencyManifest(name);
      if (await contractsExist(knex, dependency.contracts ?? [])) continue;
      await migrateSchema(knex, dependency.dbSchema, dependency.migrations);
    }
  } finally {
    await knex.destroy();
  }
}

async function contractsExist(knex: Knex, schemas: string[]): Promise<boolean> {
  if (schemas.length === 0) return false;
  const found = await knex.raw('select count(*) as n from pg_namespace where nspname = any(?)', [schemas]);
  return Number(found.rows[0].n) === schemas.length;
}
