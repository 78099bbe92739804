/**
 * The `streets` importer of the manifest (`npm run import -- geodecode streets <file.geojson>
 * [--replace=true]`): the whole file is validated first, every problem listed by its JSON path
 * (`features[3].geometry.coordinates`); nothing is written when there is one, and the rows are
 * written in one transaction.
 */
import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
import { GeoJsonError, importStreets, parseStreetsGeoJson } from './geojson';

const OPTIONS = new Set(['replace']);

export async function importStreetsFile(
  knex: Knex,
  file: string,
  options: Record<string, string> = {},
): Promise<ImportOutcome> {
  const problems = Object.keys(options)
    .filter((key) => !OPTIONS.has(key))
    .map((key) => `--${key}: unknown option (streets accepts --replace=true|false)`);
  const replace = options.replace ?? 'false';
  if (replace !== 'true' && replace !== 'false')
    problems.push(`--replace: must be true or false (got ${JSON.stringify(replace)})`);
  if (problems.length > 0) return { ok: false, problems };

  let input: unknown;
  try {
    input = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason =
      error instanceof SyntaxError ? `not valid JSON: ${error.message}` : (error as Error).message;
    return { ok: false, problems: [`${file}: ${reason}`] };
  }
  let parsed;
  try {
    parsed = parseStreetsGeoJson(input);
  } catch (error) {
    if (error instanceof GeoJsonError) return { ok: false, problems: error.problems };
    throw error;
  }
  const summary = await importStreets(knex, parsed, { replace: replace === 'true' });
  return { ok: true, summary: { ...summary } };
}
