/**
 * The previous fills of a transaction (detection's odometer and refill rules) through one index
 * whose columns and predicate are exactly the statement's conditions (PREVIOUS_FILLS in
 * src/detection/engine.ts). With only transactions_vehicle_idx, the fill-type and energy-class
 * conditions were a filter the planner (without statistics: autovacuum may be off) expected to
 * leave a few rows, so it read every earlier transaction of the vehicle by a bitmap scan and
 * sorted them for the last 3: the cost grew with the vehicle's history, and detection of a
 * 100k-row import fell to 212 transactions/s (statements of 1.2 s growing to 2.5 s per chunk).
 * Here the 3 newest rows are the first 3 index entries.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index transactions_previous_fill_idx on mobility.transactions
      (vehicle_id, (energy_type = 'ELECTRIC'), transacted_at desc, id desc)
      where transaction_type in ('REFILL', 'CHARGE') and energy_type <> 'NONE';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists mobility.transactions_previous_fill_idx');
}
