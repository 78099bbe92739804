/**
 * Every nested paged field of the first cut, as a relation from a parent id to visible children.
 * Children of a group are visible whenever the group is (visibility flows down the hierarchy);
 * every other relation also filters by the viewer's visibility.
 */
import type { Knex } from 'knex';
import { visibleDevices, visibleGroups, visibleVehicles } from '@fleetgraph/visibility';
import type { RelationSpec } from './relations';
import * as t from './tables';

export const PAGE_RULES = {
  accounts: { defaultSize: 20, maxSize: 100 },
  groups: { defaultSize: 50, maxSize: 200 },
  devices: { defaultSize: 50, maxSize: 500 },
  vehicles: { defaultSize: 50, maxSize: 500 },
} as const;

const ACCESS_OF_PARENT_ACCOUNT = `select c.descendant_id from fleet.group_closure c
  join fleet.group_accounts m on m.group_id = c.ancestor_id where m.account_id = p.parent_id`;

const from = (knex: Knex, spec: t.TableSpec) => knex(`${spec.table} as ${spec.alias}`);

export const relations = {
  accountGroups: {
    name: 'Account.groups',
    parentType: 'uuid',
    child: t.groups,
    rules: PAGE_RULES.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw(`g.id in (${ACCESS_OF_PARENT_ACCOUNT})`)
        .whereIn('g.id', visibleGroups(knex, viewer)),
  },
  accountDevices: {
    name: 'Account.devices',
    parentType: 'uuid',
    child: t.devices,
    rules: PAGE_RULES.devices,
    children: (knex, viewer) =>
      from(knex, t.devices)
        .whereRaw(
          `d.id in (select gd.device_id from fleet.group_devices gd where gd.group_id in (${ACCESS_OF_PARENT_ACCOUNT}))`,
        )
        .whereIn('d.id', visibleDevices(knex, viewer)),
  },
  accountVehicles: {
    name: 'Account.vehicles',
    parentType: 'uuid',
    child: t.vehicles,
    rules: PAGE_RULES.vehicles,
    children: (knex, viewer) =>
      from(knex, t.vehicles)
        .whereRaw(
          `v.id in (select gv.vehicle_id from fleet.group_vehicles gv where gv.group_id in (${ACCESS_OF_PARENT_ACCOUNT}))`,
        )
        .whereIn('v.id', visibleVehicles(knex, viewer)),
  },
  groupDevices: {
    name: 'Group.devices',
    parentType: 'uuid',
    child: t.devices,
    rules: PAGE_RULES.devices,
    children: (knex) =>
      from(knex, t.devices).whereRaw(
        'd.id in (select device_id from fleet.group_devices where group_id = p.parent_id)',
      ),
  },
  groupVehicles: {
    name: 'Group.vehicles',
    parentType: 'uuid',
    child: t.vehicles,
    rules: PAGE_RULES.vehicles,
    children: (knex) =>
      from(knex, t.vehicles).whereRaw(
        'v.id in (select vehicle_id from fleet.group_vehicles where group_id = p.parent_id)',
      ),
  },
  groupParents: {
    name: 'Group.parents',
    parentType: 'uuid',
    child: t.groups,
    rules: PAGE_RULES.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select parent_id from fleet.group_parents where group_id = p.parent_id)')
        .whereIn('g.id', visibleGroups(knex, viewer)),
  },
  groupChildren: {
    name: 'Group.children',
    parentType: 'uuid',
    child: t.groups,
    rules: PAGE_RULES.groups,
    children: (knex) =>
      from(knex, t.groups).whereRaw(
        'g.id in (select group_id from fleet.group_parents where parent_id = p.parent_id)',
      ),
  },
  groupUsers: {
    name: 'Group.users',
    parentType: 'uuid',
    child: t.accounts,
    rules: PAGE_RULES.accounts,
    children: (knex) =>
      from(knex, t.accounts).whereRaw(
        'a.id in (select account_id from fleet.group_accounts where group_id = p.parent_id)',
      ),
  },
  deviceGroups: {
    name: 'Device.groups',
    parentType: 'text',
    child: t.groups,
    rules: PAGE_RULES.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select group_id from fleet.group_devices where device_id = p.parent_id)')
        .whereIn('g.id', visibleGroups(knex, viewer)),
  },
  deviceVehicles: {
    name: 'Device.vehicles',
    parentType: 'text',
    child: t.vehicles,
    rules: PAGE_RULES.vehicles,
    children: (knex, viewer) =>
      from(knex, t.vehicles)
        .whereRaw(
          'v.id in (select vehicle_id from fleet.device_vehicle_sessions where device_id = p.parent_id)',
        )
        .whereIn('v.id', visibleVehicles(knex, viewer)),
  },
  vehicleGroups: {
    name: 'Vehicle.groups',
    parentType: 'uuid',
    child: t.groups,
    rules: PAGE_RULES.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select group_id from fleet.group_vehicles where vehicle_id = p.parent_id)')
        .whereIn('g.id', visibleGroups(knex, viewer)),
  },
} satisfies Record<string, RelationSpec>;

export type RelationName = keyof typeof relations;
