/**
 * A transaction (and so each of its anomalies) is visible to an account when the account sees
 * its device, its vehicle, its driver or its group (fleet rules, libs/visibility). Rows of other
 * organizations can never match: every visible set is inside the viewer's organization.
 */
import type { Knex } from 'knex';
import { visibleDevices, visibleDrivers, visibleGroups, visibleVehicles } from '@fleetgraph/visibility';

export function whereVisible(
  knex: Knex,
  query: Knex.QueryBuilder,
  alias: string,
  viewer: string,
): Knex.QueryBuilder {
  return query.where((q) =>
    q
      .whereIn(`${alias}.device_id`, visibleDevices(knex, viewer))
      .orWhereIn(`${alias}.vehicle_id`, visibleVehicles(knex, viewer))
      .orWhereIn(`${alias}.driver_id`, visibleDrivers(knex, viewer))
      .orWhereIn(`${alias}.group_id`, visibleGroups(knex, viewer)),
  );
}
