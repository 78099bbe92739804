/**
 * Who may see what, as SQL over the contract fleet-core publishes (schema fleet_contract, views
 * `*_v1`, migration apps/fleet-core/migrations/20261123_006_contract_v1.ts). Rule (spec section 1):
 * an account sees the groups it is a member of, all their descendants, and the assets (devices,
 * vehicles, drivers) placed in any of those groups. It sees the accounts that are members of a
 * group it sees (and always itself).
 *
 * Every function returns a subquery selecting one `id` column, to be used as
 * `whereIn('x.id', visibleDevices(knex, uid))` so PostgreSQL plans it as a semi-join. The views
 * are inlined by the planner, so these cost the same as joins on fleet's tables.
 */
import type { Knex } from 'knex';

export const FLEET_CONTRACT = 'fleet_contract';

export function visibleGroups(knex: Knex, accountId: string): Knex.QueryBuilder {
  return knex
    .select('v.group_id as id')
    .from('fleet_contract.account_visible_groups_v1 as v')
    .where('v.account_id', accountId);
}

function visibleAssets(
  knex: Knex,
  kind: 'vehicle' | 'device' | 'driver',
  accountId: string,
): Knex.QueryBuilder {
  return knex
    .select(`v.${kind}_id as id`)
    .from(`fleet_contract.account_visible_${kind}s_v1 as v`)
    .where('v.account_id', accountId);
}

export const visibleDevices = (knex: Knex, accountId: string) => visibleAssets(knex, 'device', accountId);
export const visibleVehicles = (knex: Knex, accountId: string) => visibleAssets(knex, 'vehicle', accountId);
export const visibleDrivers = (knex: Knex, accountId: string) => visibleAssets(knex, 'driver', accountId);

export function visibleAccounts(knex: Knex, accountId: string): Knex.QueryBuilder {
  return knex
    .select('a.account_id as id')
    .from('fleet.group_accounts as a')
    .whereIn('a.group_id', visibleGroups(knex, accountId))
    .union(knex.raw('select ?::uuid as id', [accountId]));
}

/** The organization of an account (a subquery selecting `organization_id`). */
export function organizationOf(knex: Knex, accountId: string): Knex.QueryBuilder {
  return knex.select('a.organization_id').from('fleet_contract.accounts_v1 as a').where('a.id', accountId);
}

/**
 * Recomputes the transitive closure of the group hierarchy (ancestor, descendant, depth; every
 * group is its own ancestor at depth 0) for one organization, or all when none is given.
 * The hierarchy must be acyclic; the depth bound only guards against a cycle slipping through.
 */
export async function refreshGroupClosure(knex: Knex, organizationId?: string): Promise<void> {
  const scope = organizationId ? knex.raw('where g.organization_id = ?', [organizationId]) : knex.raw('');
  await knex.transaction(async (trx) => {
    if (organizationId) {
      await trx.raw(
        'delete from fleet.group_closure c using fleet.groups g where g.id = c.descendant_id and g.organization_id = ?',
        [organizationId],
      );
    } else {
      await trx.raw('delete from fleet.group_closure');
    }
    await trx.raw(
      `with recursive closure(ancestor_id, descendant_id, depth) as (
         select g.id, g.id, 0 from fleet.groups g ${scope.toQuery()}
         union all
         select c.ancestor_id, p.group_id, c.depth + 1
           from closure c join fleet.group_parents p on p.parent_id = c.descendant_id
          where c.depth < 64
       )
       insert into fleet.group_closure (ancestor_id, descendant_id, depth)
       select ancestor_id, descendant_id, min(depth) from closure group by ancestor_id, descendant_id`,
    );
  });
}
