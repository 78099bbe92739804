/**
 * Devices in id order within their organization, (organization_id, id), replacing the index on
 * organization_id alone (its prefix).
 *
 * Why: the root `devices` list of an account that sees its whole hierarchy (a member of a
 * top-level group) walks its organization's devices in page order and tests each row's
 * visibility (libs/visibility, rootListShape): one index range, stopping once the page is full.
 * Before, every page built the viewer's whole visible set first: 11-17 ms of PostgreSQL per page
 * for the 6,000 devices the demo login sees at `npm run seed -- --scale 100`, against 0.7 ms
 * walked.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index devices_org_order_idx on fleet.devices (organization_id, id);
    drop index fleet.devices_org_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create index devices_org_idx on fleet.devices (organization_id);
    drop index fleet.devices_org_order_idx;
  `);
}
