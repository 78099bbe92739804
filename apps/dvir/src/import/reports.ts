import type { Knex } from 'knex';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
export async function importReportsFile(
  _knex: Knex,
  _file: string,
  _context: unknown,
): Promise<ImportOutcome> {
  return { ok: false, problems: ['not yet'] };
}
