/**
 * Drivers in label order within their organization, (organization_id, label, id), replacing the
 * index on organization_id alone (its prefix; the walk's index must be the only one led by the
 * organization, or the planner, without statistics, may walk the other and sort).
 *
 * Why: the root `drivers` list of an account that sees its whole hierarchy (a member of a
 * top-level group seeing a large fleet, libs/visibility rootListScope), in its default order,
 * walks its organization's drivers in page order and tests each row's visibility: one index
 * range, stopping once the page is full. Before, every page built the viewer's visible drivers
 * first: 23 ms of PostgreSQL for a page of 50 of the 4,696 drivers the demo login sees at
 * `npm run seed -- --scale 100`.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index drivers_org_label_idx on fleet.drivers (organization_id, label, id);
    drop index fleet.drivers_org_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create index drivers_org_idx on fleet.drivers (organization_id);
    drop index fleet.drivers_org_label_idx;
  `);
}
