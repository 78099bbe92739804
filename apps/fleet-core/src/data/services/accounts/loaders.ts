/** An account's roles, and its alert preferences under the personal data rule. */
import { uuidsOnly } from '@fleetgraph/paging';
import { personalDataRoleOf } from '../../roles';
import { groupedBy, serviceLookup, type LoaderEnv } from '../kit';

const alertPreference = serviceLookup(
  { column: 'ap.account_id', field: 'accountId', kind: 'uuid' },
  ({ knex, viewer }) =>
    knex('fleet.account_alert_preferences as ap')
      .select(
        'ap.account_id as accountId',
        'ap.channels',
        'ap.minimum_severity as minimumSeverity',
        'ap.digest',
        'ap.language',
        'ap.quiet_hours_start as quietHoursStart',
        'ap.quiet_hours_end as quietHoursEnd',
        'ap.muted_types as mutedTypes',
        'ap.updated_at as updatedAt',
      )
      .where((q) => q.where('ap.account_id', viewer).orWhereExists(personalDataRoleOf(knex, viewer))),
);

export const accountLoaders = (env: LoaderEnv) => ({
  roles: groupedBy(
    (keys) =>
      env
        .knex('fleet.account_roles as r')
        .select(
          'r.account_id as accountId',
          'r.role as name',
          'r.granted_at as grantedAt',
          'r.granted_by as grantedById',
        )
        .whereIn('r.account_id', uuidsOnly(keys))
        .orderBy(['r.account_id', 'r.role']),
    'accountId',
    'uuid',
  ),
  /**
   * Alert preferences: the account's own, or any account of the organization for an ADMIN or
   * FLEET_MANAGER (accounts reach here only once visible, hence of the caller's organization).
   */
  alertPreference: alertPreference(env),
});
