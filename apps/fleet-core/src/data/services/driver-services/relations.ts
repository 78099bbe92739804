/** The workshops offering a driver service. */
import { from, type RelationSpec } from '@fleetgraph/paging';
import { workshops } from '../workshops/tables';

export const driverServiceRelations = {
  driverServiceWorkshops: {
    name: 'DriverService.workshops',
    parentType: 'uuid',
    child: workshops,
    children: (knex) =>
      from(knex, workshops).whereRaw(
        'w.id in (select workshop_id from fleet.driver_service_workshops where driver_service_id = p.parent_id)',
      ),
  },
} satisfies Record<string, RelationSpec>;
