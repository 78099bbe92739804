/**
 * What the fleet argument tests share: GraphQL calls through the gateway as a signed-in login, and
 * the answers they must give computed independently in SQL. Visibility is re-derived here from
 * group membership and the group_parents hierarchy (a recursive walk, not fleet-core's closure
 * table): the groups an account is a member of and all their descendants, the assets placed in
 * them, and the accounts that are members of them.
 */
import assert from 'node:assert/strict';
import type { Knex } from '@fleetgraph/db';
import { postGraphQL } from '@fleetgraph/testing';
import type { Stack } from './stack';

export type Kind = 'groups' | 'devices' | 'vehicles' | 'drivers' | 'accounts';

const REACH = `with recursive reach(id) as (
    select m.group_id from fleet.group_accounts m join fleet.accounts a on a.id = m.account_id where a.email = ?
    union select p.group_id from fleet.group_parents p join reach r on p.parent_id = r.id)`;
const VISIBLE: Record<Kind, string> = {
  groups: `${REACH} select id from reach`,
  devices: `${REACH} select x.device_id from fleet.group_devices x join reach r on r.id = x.group_id`,
  vehicles: `${REACH} select x.vehicle_id from fleet.group_vehicles x join reach r on r.id = x.group_id`,
  drivers: `${REACH} select x.driver_id from fleet.group_drivers x join reach r on r.id = x.group_id`,
  accounts: `${REACH} select x.account_id from fleet.group_accounts x join reach r on r.id = x.group_id
    union select a.id from fleet.accounts a where a.email = ?`,
};

/** Helpers bound to a stack and the tokens of its logins (both set once the stack runs). */
export function fleetExpectations(current: () => { stack: Stack; tokens: Map<string, string> }) {
  const post = (email: string, query: string, variables: Record<string, unknown>) => {
    const { stack, tokens } = current();
    return postGraphQL(stack.platform.urls.graphql, query, { token: tokens.get(email)!, variables });
  };
  return {
    /** The data of a request that must succeed. */
    async gql(email: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
      const res = await post(email, query, variables);
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      return res.data;
    },
    /** The error codes of a request that must fail. */
    async errorCodes(email: string, query: string, variables: Record<string, unknown> = {}) {
      const res = await post(email, query, variables);
      assert.ok(res.errors && res.errors.length > 0, `expected an error, got ${JSON.stringify(res.data)}`);
      return res.errors.map((e) => e.extensions?.code);
    },
    /** `<column> in (what <email> may see of <kind>)`, compared as text. */
    visibleTo: (email: string, kind: Kind, column: string): Knex.Raw =>
      current().stack.knex.raw(`${column}::text in (select v::text from (${VISIBLE[kind]}) s(v))`, [
        email,
        ...(kind === 'accounts' ? [email] : []),
      ]),
  };
}
