/**
 * fleet-core's JSON dataset import (format: tools/seed/README.md) behind its manifest's
 * `importers.dataset`: every problem listed by JSON path and nothing written on error, else every
 * row in one transaction.
 */
import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
import { countsByTable } from '../demo/index';
import { ImportError, importDataset, type ImportedAccount } from './import';

export {
  importDataset,
  validateDataset,
  ImportError,
  type ImportSummary,
  type ImportOptions,
  type ImportedAccount,
} from './import';
export type { SignInConflicts } from './validate';
export { datasetSchema, type Dataset, type DatasetInput } from './dataset';

/** `npm run import -- fleet-core dataset <file.json>`. */
export async function runDatasetImport(
  knex: Knex,
  file: string,
  context: { log(line: string): void; now: Date },
): Promise<ImportOutcome> {
  let input: unknown;
  try {
    input = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return { ok: false, problems: [`${file}: cannot read: ${(error as Error).message}`] };
  }
  let signIns: ImportedAccount[] = [];
  try {
    const {
      imported,
      services,
      durationMs,
      users: _users,
      ...counts
    } = await importDataset(knex, input, {
      now: context.now,
      // The accounts' sign-ins go back to the import command, which creates them at the SSO
      // (fleet-core never writes the SSO's tables).
      signIns: async (accounts) => {
        signIns = accounts;
        return async () => 0;
      },
    });
    for (const org of imported) context.log(`organization ${org.name} (${org.id})`);
    context.log(`imported in ${(durationMs / 1000).toFixed(1)} s`);
    const written = Object.entries(services).filter(([, rows]) => rows > 0);
    return {
      ok: true,
      summary: { ...countsByTable(counts), ...Object.fromEntries(written) },
      logins: signIns.map(({ uid, email, password, fullName, language }) => ({
        uid,
        email,
        password,
        fullName,
        language,
      })),
    };
  } catch (error) {
    if (error instanceof ImportError) return { ok: false, problems: error.problems };
    throw error;
  }
}
