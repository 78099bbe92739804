/**
 * fleet_contract.account_groups_v1: which groups an account is a member of (the graph already
 * shows them as Group.users). libs/visibility's rootListScope reads it to decide, for any
 * subgraph, whether a root list walks its organization's rows in page order (a member of a
 * top-level group seeing a large fleet) or builds the visible set; before, only fleet-core could
 * decide, as the decision read fleet.group_accounts.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create view fleet_contract.account_groups_v1 as select account_id, group_id from fleet.group_accounts;
    select fleet_contract.make_read_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop view if exists fleet_contract.account_groups_v1');
}
