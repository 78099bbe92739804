/**
 * Admin CLI: `npx tsx apps/sso/src/cli.ts <user|app|keys> <command> [options]` (see
 * admin/commands.ts for the commands). Uses DATABASE_URL, else the embedded database; applies the
 * sso migrations first; REDIS_URL, when set, receives the access-token revocations. Exit code 2
 * on usage errors, 1 on other failures.
 */
import { createRevocationList } from '@fleetgraph/auth';
import { createKnex, migrateSchema, resolveDatabase } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { migrations, SSO_SCHEMA } from '../migrations/index';
import { runAdminCommand, UsageError } from './admin/commands';
import { loadSsoConfig } from './config';

const config = loadSsoConfig();
const database = await resolveDatabase({
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  dataDir,
});
const knex = createKnex({ url: database.url, applicationName: 'sso-cli' });
// With REDIS_URL, revocations (app delete) reach the gateway's shared list at once.
const revocations = config.redisUrl ? createRevocationList({ redisUrl: config.redisUrl }) : undefined;
let exitCode = 0;
try {
  await migrateSchema(knex, SSO_SCHEMA, migrations);
  for (const line of await runAdminCommand(knex, process.argv.slice(2), revocations ? { revocations } : {}))
    console.log(line);
} catch (error) {
  console.error(error instanceof UsageError ? error.message : error);
  exitCode = error instanceof UsageError ? 2 : 1;
} finally {
  await revocations?.close();
  await knex.destroy();
  await database.stop();
}
process.exit(exitCode);
