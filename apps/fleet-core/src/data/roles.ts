/**
 * Role rules shared by the services domains. Roles are per account (fleet.account_roles) and an
 * account belongs to one organization, so a role is held "in the caller's organization".
 */
import type { Knex } from 'knex';
import type { Viewer } from '@fleetgraph/auth';

/**
 * Roles that may read the personal data of every booking of their organization, every account's
 * alert preferences, and onboarding requests that have no device yet.
 */
export const PERSONAL_DATA_ROLES = ['ADMIN', 'FLEET_MANAGER'] as const;

/** A subquery for `exists`: a row when the viewer holds ADMIN or FLEET_MANAGER. */
export function personalDataRoleOf(knex: Knex, viewer: Viewer): Knex.QueryBuilder {
  return knex('fleet.account_roles as r')
    .select(knex.raw('1'))
    .where('r.account_id', viewer)
    .whereIn('r.role', [...PERSONAL_DATA_ROLES]);
}
