/**
 * Keyset time columns of the services domains in milliseconds (timestamptz(3)), as
 * 20261122_002 does for trips and device data: cursors carry JavaScript timestamps (milliseconds),
 * so a stored value with microseconds (an import, or a `default now()`) cannot be repeated by a
 * cursor, and a walk through `next` skipped the rows that shared its millisecond.
 *
 * Every timestamptz column of a keyset order (src/services/<area>/tables.ts; those of
 * src/data/tables.ts already are timestamptz(3)) is converted; existing values are rounded to the
 * millisecond. A column default (`now()` of campaigns.created_at and
 * vehicle_alert_feedbacks.created_at) is coerced to the column's type on insert, so it is stored
 * in milliseconds too.
 */
import type { Knex } from 'knex';

/** [table, column] of every services keyset time column. */
const KEYSET_TIME_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['vehicle_alerts', 'started_at'],
  ['vehicle_alert_feedbacks', 'created_at'],
  ['bookings', 'booking_date'],
  ['onboarding_requests', 'requested_at'],
  ['campaigns', 'created_at'],
  ['device_log_fetches', 'requested_at'],
  ['device_remote_diags', 'requested_at'],
  ['device_profile_privacies', 'started_at'],
  ['device_profile_modes', 'started_at'],
  ['lpa_operations', 'requested_at'],
];

const alter = (type: string) =>
  KEYSET_TIME_COLUMNS.map(
    ([table, column]) => `alter table fleet.${table} alter column ${column} type ${type};`,
  ).join('\n');

export async function up(knex: Knex): Promise<void> {
  await knex.raw(alter('timestamptz(3)'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(alter('timestamptz'));
}
