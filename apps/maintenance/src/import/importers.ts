import type { Knex } from 'knex';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';

export async function importFile(
  _kind: 'templates' | 'thresholds' | 'history',
  _knex: Knex,
  _file: string,
  _context: { log(line: string): void; now: Date; options: Record<string, string> },
): Promise<ImportOutcome> {
  return { ok: false, problems: ['not implemented'] };
}
