/** The workshops of an account's organization (a global catalog, linked per organization). */
import { from, type RelationSpec } from '@fleetgraph/paging';
import { workshops } from './tables';

export const workshopRelations = {
  accountWorkshops: {
    name: 'Account.workshops',
    parentType: 'uuid',
    child: workshops,
    children: (knex) =>
      from(knex, workshops).whereRaw(
        `w.id in (select ow.workshop_id from fleet.organization_workshops ow
           join fleet.accounts a on a.organization_id = ow.organization_id where a.id = p.parent_id)`,
      ),
  },
} satisfies Record<string, RelationSpec>;
