/**
 * A transaction (and so each of its anomalies) is visible to an account when the account sees
 * its device, its vehicle, its driver or its group (fleet rules, libs/visibility). Rows of other
 * organizations can never match: every visible set is inside the viewer's organization.
 */
import type { Knex } from 'knex';
import type { Viewer } from '@fleetgraph/auth';
import { anyAssetVisible, type VisibilityForm } from '@fleetgraph/visibility';

/**
 * The rule as a condition on `alias`'s rows: `set` (the default) against the viewer's visible
 * sets, for root lists; `row` tested on each row, for rows already narrowed by id (lookups).
 */
export function whereVisible(
  knex: Knex,
  query: Knex.QueryBuilder,
  alias: string,
  viewer: Viewer,
  form: VisibilityForm = 'set',
): Knex.QueryBuilder {
  return query.where(visibleIn(knex, alias, viewer, form));
}

/** The rule on `alias`'s rows as a condition (for `query.where(...)`), in the given form. */
export function visibleIn(knex: Knex, alias: string, viewer: Viewer, form: VisibilityForm) {
  const columns = {
    device: `${alias}.device_id`,
    vehicle: `${alias}.vehicle_id`,
    driver: `${alias}.driver_id`,
    group: `${alias}.group_id`,
  };
  return anyAssetVisible(knex, viewer, columns, form);
}
