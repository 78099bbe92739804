/** Attachments of an alert template; alerts of a device, and of a group's devices. */
import { from, type RelationSpec } from '@fleetgraph/paging';
import { idsPlacedUnder } from '@fleetgraph/visibility';
import { alertAttachments, vehicleAlerts } from './tables';

export const alertRelations = {
  templateAttachments: {
    name: 'AlertTemplate.attachments',
    parentType: 'uuid',
    child: alertAttachments,
    children: (knex) => from(knex, alertAttachments).whereRaw('aa.template_id = p.parent_id'),
  },
  deviceAlerts: {
    name: 'Device.alerts',
    parentType: 'text',
    child: vehicleAlerts,
    children: (knex) => from(knex, vehicleAlerts).whereRaw('va.device_id = p.parent_id'),
  },
  groupAlerts: {
    name: 'Group.alerts',
    parentType: 'uuid',
    child: vehicleAlerts,
    // The group and its descendants (all visible when the group is): their devices' alerts, the
    // devices read down the subtree by index: as a semi-join, the planner (without statistics)
    // hashes every placement and every alert of the database again under each group.
    children: (knex) =>
      from(knex, vehicleAlerts).whereRaw('va.device_id = any(?)', [
        idsPlacedUnder(knex, 'device', 'p.parent_id'),
      ]),
  },
} satisfies Record<string, RelationSpec>;
