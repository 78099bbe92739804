/**
 * Imports streets and addresses from a GeoJSON FeatureCollection into the geo schema.
 *
 *   npx tsx apps/geodecode/src/import-main.ts <file.geojson> [--replace]
 *   npx tsx apps/geodecode/src/import-main.ts --demo [--replace]
 *
 * --replace empties geo.streets/geo.addresses first (else rows are added); --demo imports the
 * generated demo dataset. The database is DATABASE_URL, else the embedded server. A file goes
 * through the manifest's `streets` importer: validated completely before anything is written,
 * problems listed with feature indexes.
 */
import { resolve } from 'node:path';
import { createKnex, migrateSchema, resolveDatabase } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { GEO_SCHEMA, migrations } from '../migrations/index';
import { importStreets, parseStreetsGeoJson } from './data/import';
import { demoStreetsGeoJson } from './demo/streets';
import { importStreetsFile } from './importer';

const args = process.argv.slice(2);
const replace = args.includes('--replace');
const demo = args.includes('--demo');
const file = args.find((a) => !a.startsWith('--'));
if (!demo && !file) {
  console.error('usage: import-main.ts <file.geojson> [--replace] | --demo [--replace]');
  process.exit(2);
}

const database = await resolveDatabase({
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  dataDir,
});
const knex = createKnex({ url: database.url, applicationName: 'geodecode-import' });
let exitCode = 0;
try {
  await migrateSchema(knex, GEO_SCHEMA, migrations);
  const started = Date.now();
  const outcome = demo
    ? {
        ok: true as const,
        summary: await importStreets(knex, parseStreetsGeoJson(demoStreetsGeoJson()), { replace }),
      }
    : await importStreetsFile(knex, resolve(process.cwd(), file!), { replace: String(replace) });
  if (outcome.ok) {
    const s = outcome.summary;
    console.log(
      `imported ${s.streets} streets (${s.segments} segments) and ${s.addresses} addresses, skipped ${s.skipped} features, in ${Date.now() - started} ms`,
    );
  } else {
    console.error(`nothing imported (${outcome.problems.length} problems):`);
    for (const problem of outcome.problems) console.error(`  - ${problem}`);
    exitCode = 1;
  }
} finally {
  await knex.destroy();
  await database.stop();
}
process.exit(exitCode);
