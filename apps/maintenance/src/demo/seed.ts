import type { Knex } from 'knex';
import type { DemoDataContext, DemoSeedResult } from '@fleetgraph/subgraph-kit';

export async function maintenanceSeeded(knex: Knex): Promise<boolean> {
  return Boolean(await knex('maintenance.templates').first('id'));
}

export async function seedMaintenance(_knex: Knex, _context: DemoDataContext): Promise<DemoSeedResult> {
  return {};
}
