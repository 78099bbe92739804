/**
 * The demo streets, loaded when the geo tables are empty by the manifest's demoData hook (npm start,
 * npm run seed, the tests that need them).
 */
import type { Knex } from 'knex';
import { importStreets, parseStreetsGeoJson, type ImportSummary } from '../import/geojson';
import { demoStreetsGeoJson } from './streets';

/** True when geo.streets or geo.addresses already hold rows. */
export async function streetsPresent(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: Array<{ filled: boolean }> }>(
    'select exists (select 1 from geo.streets) or exists (select 1 from geo.addresses) as filled',
  );
  return rows[0]?.filled === true;
}

/** Imports the demo dataset unless the geo tables already hold rows; null when skipped. */
export async function seedStreets(knex: Knex): Promise<ImportSummary | null> {
  if (await streetsPresent(knex)) return null;
  return importStreets(knex, parseStreetsGeoJson(demoStreetsGeoJson()));
}
