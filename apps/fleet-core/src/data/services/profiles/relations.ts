/** A device's privacy levels and device modes over time, newest first. */
import { from, type RelationSpec } from '@fleetgraph/paging';
import { profileModes, profilePrivacies } from './tables';

export const profileRelations = {
  deviceProfilePrivacies: {
    name: 'Device.profilePrivacies',
    parentType: 'text',
    child: profilePrivacies,
    children: (knex) => from(knex, profilePrivacies).whereRaw('pp.device_id = p.parent_id'),
  },
  deviceProfileModes: {
    name: 'Device.profileModes',
    parentType: 'text',
    child: profileModes,
    children: (knex) => from(knex, profileModes).whereRaw('pm.device_id = p.parent_id'),
  },
} satisfies Record<string, RelationSpec>;
