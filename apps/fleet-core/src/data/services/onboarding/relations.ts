/**
 * An account's onboarding distributors, a distributor's staff and requests. Requests name a
 * vehicle (plate, VIN, notes): only those whose device the viewer sees follow; a request with no
 * device yet only for ADMIN / FLEET_MANAGER (the personal data rule).
 */
import { from, type RelationSpec } from '@fleetgraph/paging';
import { deviceVisibleTo } from '@fleetgraph/visibility';
import { personalDataRoleOf } from '../../roles';
import { distributors, requests, staff } from './tables';

export const onboardingRelations = {
  accountDistributors: {
    name: 'Account.distributors',
    parentType: 'uuid',
    child: distributors,
    children: (knex) =>
      from(knex, distributors).whereRaw(
        'od.organization_id = (select a.organization_id from fleet.accounts a where a.id = p.parent_id)',
      ),
  },
  distributorStaff: {
    name: 'OnboardingDistributor.staff',
    parentType: 'uuid',
    child: staff,
    children: (knex) => from(knex, staff).whereRaw('os.distributor_id = p.parent_id'),
  },
  distributorRequests: {
    name: 'OnboardingDistributor.requests',
    parentType: 'uuid',
    child: requests,
    children: (knex, viewer) =>
      from(knex, requests)
        .whereRaw('orq.distributor_id = p.parent_id')
        .where((q) =>
          q
            .where(deviceVisibleTo(knex, viewer, 'orq.device_id'))
            .orWhere((none) => none.whereNull('orq.device_id').whereExists(personalDataRoleOf(knex, viewer))),
        ),
  },
} satisfies Record<string, RelationSpec>;
