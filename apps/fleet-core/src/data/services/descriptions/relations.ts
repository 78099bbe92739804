/** Descriptions of a subject (account, group, device, vehicle, driver), one relation each. */
import { from, type RelationSpec } from '@fleetgraph/paging';
import { descriptions } from './tables';

const descriptionsOf = (name: string, subject: string): RelationSpec => ({
  name,
  parentType: 'text',
  child: descriptions,
  children: (knex) =>
    from(knex, descriptions).where('ds.subject', subject).whereRaw('ds.subject_id = p.parent_id'),
});

export const descriptionRelations = {
  accountDescriptions: descriptionsOf('Account.descriptions', 'ACCOUNT'),
  groupDescriptions: descriptionsOf('Group.descriptions', 'GROUP'),
  deviceDescriptions: descriptionsOf('Device.descriptions', 'DEVICE'),
  vehicleDescriptions: descriptionsOf('Vehicle.descriptions', 'VEHICLE'),
  driverDescriptions: descriptionsOf('Driver.descriptions', 'DRIVER'),
} satisfies Record<string, RelationSpec>;
