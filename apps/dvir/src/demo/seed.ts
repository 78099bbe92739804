import type { Knex } from 'knex';
import type { DemoDataContext } from '@fleetgraph/subgraph-kit';
export const dvirSeeded = async (knex: Knex) => Boolean(await knex('dvir.inspection_reports').first('id'));
export async function seedDvirDemo(_knex: Knex, _context: DemoDataContext): Promise<void> {}
