/**
 * Imports a DVIR dataset (JSON; format in src/import/reports.ts) through the manifest's `reports`
 * importer until `npm run import -- dvir reports <file>` dispatches to manifests:
 *
 *   npx tsx apps/dvir/src/import-main.ts <file.json>
 *
 * The database is DATABASE_URL, else the embedded server; the dvir schema is migrated first (the
 * fleet schema must exist: `npm start` or `npm run seed` once). Every problem is printed with its
 * JSON path and nothing is written when there is one (exit 1).
 */
import { resolve } from 'node:path';
import { createKnex, migrateSchema, resolveDatabase } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import manifest from './manifest';

const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: import-main.ts <file.json>');
  process.exit(2);
}
const database = await resolveDatabase({
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  dataDir,
});
const knex = createKnex({ url: database.url, applicationName: 'dvir-import' });
let exitCode = 0;
try {
  await migrateSchema(knex, manifest.dbSchema, manifest.migrations);
  const outcome = await manifest.importers!.reports!.run(
    knex,
    resolve(process.env.INIT_CWD ?? process.cwd(), file),
    { log: (line) => console.log(line), now: new Date(), options: {} },
  );
  if (outcome.ok) {
    console.log(`imported ${file}: ${JSON.stringify(outcome.summary)}`);
  } else {
    console.error(`${file}: nothing imported, ${outcome.problems.length} problem(s):`);
    for (const problem of outcome.problems) console.error(`  ${problem}`);
    exitCode = 1;
  }
} finally {
  await knex.destroy();
  await database.stop();
}
process.exit(exitCode);
