/**
 * Anonymous readings (Device.readingsAnon) page by the hour they were recorded in and their id,
 * never by the exact time: their cursors must not carry what the answer hides. This index serves
 * that order like readings_device_idx serves the exact one.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index readings_device_hour_idx on fleet.readings
      (device_id, (date_trunc('hour', recorded_at at time zone 'UTC') at time zone 'UTC') desc, id desc);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists fleet.readings_device_hour_idx');
}
