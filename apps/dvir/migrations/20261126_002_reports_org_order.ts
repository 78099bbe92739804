/**
 * Reports in time order within their organization, (organization_id, started_at, id), scanned
 * backward for the list's newest-first order.
 *
 * Why: the root `inspectionReports` list of an account that sees its whole hierarchy (a member
 * of a top-level group seeing a large fleet, libs/visibility rootListScope) walks its
 * organization's reports in page order and tests each row's visibility: one index range,
 * stopping once the page is full. Before, every page built the viewer's visible vehicles and
 * groups first, a cost growing with the fleet (10.8 ms of PostgreSQL for one report at
 * `npm run seed -- --scale 100`, against 0.06 ms at demo scale).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index inspection_reports_org_time_idx on dvir.inspection_reports (organization_id, started_at, id)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index dvir.inspection_reports_org_time_idx');
}
