/**
 * Who sees which dvir rows, as SQL over fleet-core's published contract (libs/visibility):
 * - a report, its answers, defects and attachments: when its vehicle is visible to the viewer,
 *   or the group the report was taken in is (every such table carries vehicle_id and group_id);
 * - a template (and its items): when its group is visible; a template without a group is visible
 *   to every account of its organization, and to every account when it has no organization
 *   (the platform's global templates).
 */
import type { Knex } from 'knex';
import type { Viewer } from '@fleetgraph/auth';
import { anyAssetVisible, organizationOf, visibleGroups, type VisibilityForm } from '@fleetgraph/visibility';

/**
 * The fleet rule as a condition on `alias`'s rows (vehicle_id, group_id): `set` against the
 * viewer's visible sets, for root lists nothing else bounds; `row` tested on each row (a few index
 * probes, whatever the viewer sees), for rows narrowed by id or by parent (lookups, a report's
 * answers, a vehicle's defects).
 */
export function whereFleetVisible(
  knex: Knex,
  query: Knex.QueryBuilder,
  alias: string,
  viewer: Viewer,
  form: VisibilityForm = 'set',
) {
  return query.where(fleetVisible(knex, alias, viewer, form));
}

/** The fleet rule on `alias`'s rows as a condition (for `query.where(...)`), in the given form. */
export const fleetVisible = (knex: Knex, alias: string, viewer: Viewer, form: VisibilityForm) =>
  anyAssetVisible(knex, viewer, { vehicle: `${alias}.vehicle_id`, group: `${alias}.group_id` }, form);

/** whereFleetVisible per row. */
export const whereFleetRowVisible = (knex: Knex, query: Knex.QueryBuilder, alias: string, viewer: Viewer) =>
  whereFleetVisible(knex, query, alias, viewer, 'row');

export function whereTemplateVisible(knex: Knex, query: Knex.QueryBuilder, alias: string, viewer: Viewer) {
  return query.where((w) =>
    w
      .whereIn(`${alias}.group_id`, visibleGroups(knex, viewer))
      .orWhere((global) =>
        global
          .whereNull(`${alias}.group_id`)
          .where((o) =>
            o
              .whereNull(`${alias}.organization_id`)
              .orWhereIn(`${alias}.organization_id`, organizationOf(knex, viewer)),
          ),
      ),
  );
}

/** Ids of the templates the viewer sees (a subquery for `whereIn`). */
export function visibleTemplateIds(knex: Knex, viewer: Viewer): Knex.QueryBuilder {
  return whereTemplateVisible(knex, knex('dvir.inspection_templates as vt').select('vt.id'), 'vt', viewer);
}
