/** Attachments of an alert template; alerts of a device, and of a group's devices. */
import { from, type RelationSpec } from '@fleetgraph/paging';
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
    // The group and its descendants (all visible when the group is): their devices' alerts.
    children: (knex) =>
      from(knex, vehicleAlerts).whereRaw(
        `va.device_id in (select gd.device_id from fleet.group_devices gd
           join fleet.group_closure c on c.descendant_id = gd.group_id where c.ancestor_id = p.parent_id)`,
      ),
  },
} satisfies Record<string, RelationSpec>;
