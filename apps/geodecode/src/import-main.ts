/**
 * Imports streets and addresses from a GeoJSON FeatureCollection into the geo schema.
 *
 *   npx tsx apps/geodecode/src/import-main.ts <file.geojson> [--replace]
 *   npx tsx apps/geodecode/src/import-main.ts --demo [--replace]
 *
 * --replace empties geo.streets/geo.addresses first (else rows are added); --demo imports the
 * generated demo dataset. The database is DATABASE_URL, else the embedded server. The file is
 * validated completely before anything is written; problems are listed with feature indexes.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createKnex, migrateSchema, resolveDatabase } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { GEO_SCHEMA, migrations } from '../migrations/index';
import { GeoJsonError, importStreets, parseStreetsGeoJson } from './data/import';
import { demoStreetsGeoJson } from './demo/streets';

const args = process.argv.slice(2);
const replace = args.includes('--replace');
const demo = args.includes('--demo');
const file = args.find((a) => !a.startsWith('--'));
if (!demo && !file) {
  console.error('usage: import-main.ts <file.geojson> [--replace] | --demo [--replace]');
  process.exit(2);
}

let input: unknown;
if (demo) input = demoStreetsGeoJson();
else {
  const path = resolve(process.cwd(), file!);
  try {
    input = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    console.error(`cannot read ${path} as JSON: ${(error as Error).message}`);
    process.exit(1);
  }
}

let parsed;
try {
  parsed = parseStreetsGeoJson(input);
} catch (error) {
  if (error instanceof GeoJsonError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const database = await resolveDatabase({
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  dataDir,
});
const knex = createKnex({ url: database.url, applicationName: 'geodecode-import' });
try {
  await migrateSchema(knex, GEO_SCHEMA, migrations);
  const started = Date.now();
  const summary = await importStreets(knex, parsed, { replace });
  console.log(
    `imported ${summary.streets} streets (${summary.segments} segments) and ${summary.addresses} addresses, skipped ${summary.skipped} features, in ${Date.now() - started} ms`,
  );
} finally {
  await knex.destroy();
  await database.stop();
}
