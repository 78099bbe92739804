/**
 * Vehicles in id order within their organization, (organization_id, id), replacing the index on
 * organization_id alone (its prefix).
 *
 * Why: an account's vehicles under a page of accounts (Account.vehicles), for an account that sees
 * a large fleet, walk its organization's vehicles in page order and test each row for the account
 * and the viewer (relation-specs.ts): one index range, stopping once the page is full, where
 * reading every vehicle the account sees would cost its whole fleet for a page of five.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index vehicles_org_order_idx on fleet.vehicles (organization_id, id);
    drop index fleet.vehicles_org_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create index vehicles_org_idx on fleet.vehicles (organization_id);
    drop index fleet.vehicles_org_order_idx;
  `);
}
