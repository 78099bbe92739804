/**
 * Admin CLI: `npx tsx apps/sso/src/cli.ts <user|app|keys> <command> [options]` (see
 * admin/commands.ts for the commands). Uses DATABASE_URL, else the embedded database: the one a
 * running `npm start` holds (found by its postmaster.pid), or one started for the command;
 * applies the sso migrations first. Revocations it makes are rows, announced by the database to
 * every gateway and subgraph (and published to REDIS_URL too when set). `--help` and unknown
 * commands touch no database. Exit code 2 on usage errors, 1 on other failures.
 */
import { createRevocationList } from '@fleetgraph/auth';
import { createKnex, migrateSchema, resolveDatabase } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { migrations, SSO_SCHEMA } from '../migrations/index';
import { runAdminCommand, USAGE, UsageError } from './admin/commands';
import { loadSsoConfig } from './config';
import { keyCipherOf, withDevKeyEncryption } from './key-encryption';

// Help and unknown commands need no database (and must not start one).
const argv = process.argv.slice(2);
const knownCommands = USAGE.split('\n').flatMap((line) => /^\s+(\w+ [\w-]+)/.exec(line)?.[1] ?? []);
if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (!knownCommands.includes(argv.slice(0, 2).join(' '))) {
  console.error(`unknown command "${argv.slice(0, 2).join(' ')}"\n${USAGE}`);
  process.exit(2);
}

const config = loadSsoConfig();
const database = await resolveDatabase({
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  dataDir,
});
const knex = createKnex({ url: database.url, applicationName: 'sso-cli' });
// With REDIS_URL, revocations (app delete) reach the gateway's shared list at once.
const revocations = config.redisUrl
  ? createRevocationList({ redisUrl: config.redisUrl, keyPrefix: config.revocationPrefix })
  : undefined;
let exitCode = 0;
try {
  await migrateSchema(knex, SSO_SCHEMA, migrations);
  const keyCipher = keyCipherOf(withDevKeyEncryption(config, { embedded: database.embedded, dataDir }));
  for (const line of await runAdminCommand(knex, argv, {
    ...(revocations ? { revocations } : {}),
    ...(keyCipher ? { keyCipher } : {}),
  }))
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
