/**
 * The one-shot job that readies the database for the platform on containers
 * (`dist/prepare/main.js`, run once before any service, whose replicas start with
 * `DATABASE_MIGRATIONS=wait`): every schema migrated in dependency order, the demo data, the
 * explorer's OAuth client, the SSO's first signing key, then each app's database role with the
 * password its containers are given (`DATABASE_ROLE_PASSWORD_<APP>`). The whole job holds one
 * PostgreSQL advisory lock: a second run started at the same time waits, then finds everything
 * done. Every step is idempotent, so the job runs on every `up`.
 */
import pg from 'pg';
import { setTimeout as delay } from 'node:timers/promises';
import { createKnex, provisionAppRoles } from '@fleetgraph/db';
import { ensureSigningKey, keyCipherOf, sealStoredKeys } from '@fleetgraph/sso';
import { loadSubgraphUnits } from '@fleetgraph/subgraphs';
import { prepareDatabase } from './platform';
import { appRoleSpecs, roleMode } from './roles';

/** Any constant shared by every run of this job (the SSO's key creation has its own). */
const PREPARE_LOCK = 0x46_47_50_52; // 'FGPR'

const log = (line: string) => console.log(`prepare: ${line}`);
const envKey = (name: string) => name.toUpperCase().replace(/-/g, '_');

async function connect(url: string, timeoutMs: number): Promise<pg.Client> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, application_name: 'fleetgraph-prepare' });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await delay(1000);
    }
  }
}

async function main(): Promise<void> {
  const env = process.env;
  // This job is the one that migrates, whatever the services around it are told.
  env.DATABASE_MIGRATIONS = 'run';
  const adminUrl = env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (an administrator of the database) is required');
  const units = await loadSubgraphUnits();
  const lock = await connect(adminUrl, 120_000);
  const started = Date.now();
  try {
    await lock.query('select pg_advisory_lock($1)', [PREPARE_LOCK]);
    log(`lock held after ${Date.now() - started} ms`);
    const explorerEnv =
      env.EXPLORER_CLIENT_ID && env.EXPLORER_CLIENT_SECRET
        ? {
            EXPLORER_CLIENT_ID: env.EXPLORER_CLIENT_ID,
            EXPLORER_CLIENT_SECRET: env.EXPLORER_CLIENT_SECRET,
            EXPLORER_PUBLIC_URL: env.EXPLORER_PUBLIC_URL ?? 'http://localhost:4000',
          }
        : {};
    const seeded = await prepareDatabase(adminUrl, units, explorerEnv, env.FLEETGRAPH_SEED !== '0', log);
    log(seeded ? 'schemas migrated, demo data loaded' : 'schemas migrated (data already there)');

    const knex = createKnex({ url: adminUrl, pool: { min: 0, max: 1 } });
    try {
      const cipher = keyCipherOf({
        ...(env.SSO_KEY_ENCRYPTION_KEY ? { keyEncryptionKey: env.SSO_KEY_ENCRYPTION_KEY } : {}),
      });
      if (cipher) await sealStoredKeys(knex, cipher);
      log(`SSO signing key ${await ensureSigningKey(knex, cipher)}`);
      if (roleMode(env) !== 'shared') {
        const specs = appRoleSpecs(units);
        const passwords: Record<string, string> = {};
        for (const { app } of specs) {
          const password = env[`DATABASE_ROLE_PASSWORD_${envKey(app)}`];
          if (!password) throw new Error(`DATABASE_ROLE_PASSWORD_${envKey(app)} is required`);
          passwords[app] = password;
        }
        const { roles } = await provisionAppRoles(knex, adminUrl, specs, passwords);
        log(`roles ${Object.values(roles).join(', ')}`);
      }
    } finally {
      await knex.destroy();
    }
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [PREPARE_LOCK]).catch(() => {});
    await lock.end();
  }
  log(`done in ${Date.now() - started} ms`);
}

main().catch((error: Error) => {
  console.error(`prepare: ${error.message}`);
  process.exit(1);
});
