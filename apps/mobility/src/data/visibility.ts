/**
 * A transaction (and so each of its anomalies) is visible to an account when the account sees
 * its device, its vehicle, its driver or its group (fleet rules, libs/visibility). Rows of other
 * organizations can never match: every visible set is inside the viewer's organization.
 */
import type { Knex } from 'knex';
import {
  deviceVisibleTo,
  driverVisibleTo,
  groupVisibleTo,
  vehicleVisibleTo,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from '@fleetgraph/visibility';

/** The rule over the viewer's whole visible sets (semi-joins): for root lists. */
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

/**
 * The same rule tested on each row (a few index probes per row, whatever the viewer sees): for
 * rows already narrowed by id (lookups).
 */
export function whereRowVisible(
  knex: Knex,
  query: Knex.QueryBuilder,
  alias: string,
  viewer: string,
): Knex.QueryBuilder {
  return query.where((q) =>
    q
      .where(deviceVisibleTo(knex, viewer, `${alias}.device_id`))
      .orWhere(vehicleVisibleTo(knex, viewer, `${alias}.vehicle_id`))
      .orWhere(driverVisibleTo(knex, viewer, `${alias}.driver_id`))
      .orWhere(groupVisibleTo(knex, viewer, `${alias}.group_id`)),
  );
}
