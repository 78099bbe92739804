/**
 * Every nested paged field of the first cut, as a relation from a parent id to visible children.
 * Children of a group are visible whenever the group is (visibility flows down the hierarchy);
 * every other relation also tests the viewer's visibility on each child (`deviceVisibleTo`...),
 * the parent bounding the children: a device's groups, an account's assets (what that account
 * sees, `visibleIdsOf`; its organization walked in page order when that is a large fleet). None
 * builds the viewer's whole visible set, which a nested page would build again under every parent.
 */
import type { Knex } from 'knex';
import {
  deviceVisibleTo,
  driverVisibleTo,
  groupVisibleTo,
  organizationIn,
  seenByAccountIn,
  seesLargeFleet,
  vehicleVisibleTo,
  visibleIdsOf,
} from '@fleetgraph/visibility';
import type { Viewer } from '@fleetgraph/auth';
import type { RelationSpec, RelationWay } from '@fleetgraph/paging';
import * as t from './tables';

type Filters = Record<string, unknown>;
/** `column >= after` and `column < before` for the optional time window arguments of a field. */
const timeWindow =
  (column: string, afterArg: string, beforeArg: string, extra?: (q: Knex.QueryBuilder, f: Filters) => void) =>
  (query: Knex.QueryBuilder, filters: Filters) => {
    if (filters[afterArg] != null) query.where(column, '>=', filters[afterArg] as Date);
    if (filters[beforeArg] != null) query.where(column, '<', filters[beforeArg] as Date);
    extra?.(query, filters);
  };
/**
 * The time window of readingsAnon, at hour granularity: a value counts by the hour it was recorded
 * in, compared with the hours of the bounds, so narrowing the bounds cannot reveal the exact time.
 */
const hourWindow =
  (column: string, afterArg: string, beforeArg: string, extra?: (q: Knex.QueryBuilder, f: Filters) => void) =>
  (query: Knex.QueryBuilder, filters: Filters) => {
    const hour = (value: unknown) => new Date(Math.floor((value as Date).getTime() / 3_600_000) * 3_600_000);
    if (filters[afterArg] != null) query.where(column, '>=', hour(filters[afterArg]));
    if (filters[beforeArg] != null) query.where(column, '<', hour(filters[beforeArg]));
    extra?.(query, filters);
  };
const anyOf = (column: string, arg: string) => (query: Knex.QueryBuilder, filters: Filters) => {
  const values = filters[arg] as string[] | undefined;
  if (values) query.whereIn(column, values);
};

/**
 * The children of account `p.parent_id` the viewer also sees: what the account sees (its
 * memberships down, read from that account alone) tested per row for the viewer. Testing each
 * parent's children against the viewer's whole visible set built that set again for every parent.
 */
const seenByParentAccount = (knex: Knex, column: string, kind: Parameters<typeof visibleIdsOf>[1]) =>
  knex.raw('?? = any(?)', [column, visibleIdsOf(knex, kind, 'p.parent_id')]);

const from = (knex: Knex, spec: t.TableSpec) => knex(`${spec.table} as ${spec.alias}`);

/**
 * For a parent account that sees a large fleet (seesLargeFleet), whose visible ids would be its
 * whole fleet: its organization's rows walked in page order on the index led by (organization_id,
 * ...order), each tested for that account and for the viewer, so the page stops after about a
 * page of rows. The organization is an equality with the order led by it, so the index gives the
 * order and no sort reads the organization whole.
 */
const walkLargeFleet = (
  spec: t.TableSpec,
  kind: 'vehicle' | 'device' | 'driver',
  visibleTo: (knex: Knex, viewer: Viewer, column: string) => Knex.Raw,
): RelationWay => ({
  when: (knex) => seesLargeFleet(knex, 'p.parent_id'),
  children: (knex, viewer) =>
    from(knex, spec)
      .where(`${spec.alias}.organization_id`, organizationIn(knex, 'p.parent_id'))
      .where(seenByAccountIn(knex, kind, 'p.parent_id', `${spec.alias}.id`))
      .where(visibleTo(knex, viewer, `${spec.alias}.id`)),
  orderFirst: [`${spec.alias}.organization_id`],
});

export const relations = {
  accountGroups: {
    name: 'Account.groups',
    parentType: 'uuid',
    child: t.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .where(seenByParentAccount(knex, 'g.id', 'group'))
        .where(groupVisibleTo(knex, viewer, 'g.id')),
  },
  accountDevices: {
    name: 'Account.devices',
    parentType: 'uuid',
    child: t.devices,
    children: (knex, viewer) =>
      from(knex, t.devices)
        .where(seenByParentAccount(knex, 'd.id', 'device'))
        .where(deviceVisibleTo(knex, viewer, 'd.id')),
    ways: [walkLargeFleet(t.devices, 'device', deviceVisibleTo)],
  },
  accountVehicles: {
    name: 'Account.vehicles',
    parentType: 'uuid',
    child: t.vehicles,
    children: (knex, viewer) =>
      from(knex, t.vehicles)
        .where(seenByParentAccount(knex, 'v.id', 'vehicle'))
        .where(vehicleVisibleTo(knex, viewer, 'v.id')),
    ways: [walkLargeFleet(t.vehicles, 'vehicle', vehicleVisibleTo)],
  },
  groupDevices: {
    name: 'Group.devices',
    parentType: 'uuid',
    child: t.devices,
    children: (knex) =>
      from(knex, t.devices).whereRaw(
        'd.id in (select device_id from fleet.group_devices where group_id = p.parent_id)',
      ),
  },
  groupVehicles: {
    name: 'Group.vehicles',
    parentType: 'uuid',
    child: t.vehicles,
    children: (knex) =>
      from(knex, t.vehicles).whereRaw(
        'v.id in (select vehicle_id from fleet.group_vehicles where group_id = p.parent_id)',
      ),
  },
  groupParents: {
    name: 'Group.parents',
    parentType: 'uuid',
    child: t.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select parent_id from fleet.group_parents where group_id = p.parent_id)')
        .where(groupVisibleTo(knex, viewer, 'g.id')),
  },
  groupChildren: {
    name: 'Group.children',
    parentType: 'uuid',
    child: t.groups,
    children: (knex) =>
      from(knex, t.groups).whereRaw(
        'g.id in (select group_id from fleet.group_parents where parent_id = p.parent_id)',
      ),
  },
  groupUsers: {
    name: 'Group.users',
    parentType: 'uuid',
    child: t.accounts,
    children: (knex) =>
      from(knex, t.accounts).whereRaw(
        'a.id in (select account_id from fleet.group_accounts where group_id = p.parent_id)',
      ),
  },
  deviceGroups: {
    name: 'Device.groups',
    parentType: 'text',
    child: t.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select group_id from fleet.group_devices where device_id = p.parent_id)')
        .where(groupVisibleTo(knex, viewer, 'g.id')),
  },
  deviceVehicles: {
    name: 'Device.vehicles',
    parentType: 'text',
    child: t.vehicles,
    children: (knex, viewer) =>
      from(knex, t.vehicles)
        .whereRaw(
          'v.id in (select vehicle_id from fleet.device_vehicle_sessions where device_id = p.parent_id)',
        )
        .where(vehicleVisibleTo(knex, viewer, 'v.id')),
  },
  vehicleGroups: {
    name: 'Vehicle.groups',
    parentType: 'uuid',
    child: t.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select group_id from fleet.group_vehicles where vehicle_id = p.parent_id)')
        .where(groupVisibleTo(knex, viewer, 'g.id')),
  },
  accountDrivers: {
    name: 'Account.drivers',
    parentType: 'uuid',
    child: t.drivers,
    children: (knex, viewer) =>
      from(knex, t.drivers)
        .where(seenByParentAccount(knex, 'dr.id', 'driver'))
        .where(driverVisibleTo(knex, viewer, 'dr.id')),
    ways: [walkLargeFleet(t.drivers, 'driver', driverVisibleTo)],
  },
  accountDriverProfiles: {
    name: 'Account.driverProfiles',
    parentType: 'uuid',
    child: t.drivers,
    children: (knex, viewer) =>
      from(knex, t.drivers)
        .whereRaw('dr.user_profile_id = p.parent_id')
        .where(driverVisibleTo(knex, viewer, 'dr.id')),
  },
  accountDriverContacts: {
    name: 'Account.driverContacts',
    parentType: 'uuid',
    child: t.drivers,
    children: (knex, viewer) =>
      from(knex, t.drivers)
        .whereRaw('dr.user_contact_id = p.parent_id')
        .where(driverVisibleTo(knex, viewer, 'dr.id')),
  },
  groupDrivers: {
    name: 'Group.drivers',
    parentType: 'uuid',
    child: t.drivers,
    children: (knex) =>
      from(knex, t.drivers).whereRaw(
        'dr.id in (select driver_id from fleet.group_drivers where group_id = p.parent_id)',
      ),
  },
  driverGroups: {
    name: 'Driver.groups',
    parentType: 'uuid',
    child: t.groups,
    children: (knex, viewer) =>
      from(knex, t.groups)
        .whereRaw('g.id in (select group_id from fleet.group_drivers where driver_id = p.parent_id)')
        .where(groupVisibleTo(knex, viewer, 'g.id')),
  },
  driverVehicles: {
    name: 'Driver.vehicles',
    parentType: 'uuid',
    child: t.vehicles,
    children: (knex, viewer) =>
      from(knex, t.vehicles)
        .whereRaw(
          'v.id in (select vehicle_id from fleet.driver_vehicle_sessions where driver_id = p.parent_id)',
        )
        .where(vehicleVisibleTo(knex, viewer, 'v.id')),
  },
  driverCurrentVehicles: {
    name: 'Driver.currentVehicles',
    parentType: 'uuid',
    child: t.vehicles,
    children: (knex, viewer) =>
      from(knex, t.vehicles)
        .whereRaw(
          'v.id in (select vehicle_id from fleet.driver_vehicle_sessions where driver_id = p.parent_id and ended_at is null)',
        )
        .where(vehicleVisibleTo(knex, viewer, 'v.id')),
  },
  driverVehicleSessions: {
    name: 'Driver.vehicleSessions',
    parentType: 'uuid',
    child: t.driverVehicleSessions,
    children: (knex, viewer) =>
      from(knex, t.driverVehicleSessions)
        .whereRaw('drs.driver_id = p.parent_id')
        .where(vehicleVisibleTo(knex, viewer, 'drs.vehicle_id')),
    filter: timeWindow('drs.started_at', 'startedAfter', 'startedBefore'),
  },
  driverTrips: {
    name: 'Driver.trips',
    parentType: 'uuid',
    child: t.trips,
    children: (knex) => from(knex, t.trips).whereRaw('t.driver_id = p.parent_id'),
    filter: timeWindow('t.started_at', 'startedAfter', 'startedBefore'),
  },
  vehicleTrips: {
    name: 'Vehicle.trips',
    parentType: 'uuid',
    child: t.trips,
    children: (knex) => from(knex, t.trips).whereRaw('t.vehicle_id = p.parent_id'),
    filter: timeWindow('t.started_at', 'startedAfter', 'startedBefore'),
  },
  deviceTrips: {
    name: 'Device.trips',
    parentType: 'text',
    child: t.trips,
    children: (knex) => from(knex, t.trips).whereRaw('t.device_id = p.parent_id'),
    filter: timeWindow('t.started_at', 'startedAfter', 'startedBefore'),
  },
  deviceHarshes: {
    name: 'Device.harshes',
    parentType: 'text',
    child: t.tripHarshes,
    children: (knex) => from(knex, t.tripHarshes).whereRaw('h.device_id = p.parent_id'),
    filter: timeWindow('h.occurred_at', 'occurredAfter', 'occurredBefore', anyOf('h.kind', 'kinds')),
  },
  tripHarshes: {
    name: 'Trip.harshes',
    parentType: 'uuid',
    child: t.tripHarshes,
    children: (knex) => from(knex, t.tripHarshes).whereRaw('h.trip_id = p.parent_id'),
    filter: anyOf('h.kind', 'kinds'),
  },
  deviceOverspeeds: {
    name: 'Device.overspeeds',
    parentType: 'text',
    child: t.tripOverspeeds,
    children: (knex) => from(knex, t.tripOverspeeds).whereRaw('o.device_id = p.parent_id'),
    filter: timeWindow('o.started_at', 'startedAfter', 'startedBefore'),
  },
  tripOverspeeds: {
    name: 'Trip.overspeeds',
    parentType: 'uuid',
    child: t.tripOverspeeds,
    children: (knex) => from(knex, t.tripOverspeeds).whereRaw('o.trip_id = p.parent_id'),
  },
  tripMetadata: {
    name: 'Trip.metadata',
    parentType: 'uuid',
    child: t.tripMetadata,
    children: (knex) => from(knex, t.tripMetadata).whereRaw('tm.trip_id = p.parent_id'),
  },
  deviceVehicleSessions: {
    name: 'Device.vehicleSessions',
    parentType: 'text',
    child: t.deviceVehicleSessions,
    children: (knex, viewer) =>
      from(knex, t.deviceVehicleSessions)
        .whereRaw('dvs.device_id = p.parent_id')
        .where(vehicleVisibleTo(knex, viewer, 'dvs.vehicle_id')),
    filter: timeWindow('dvs.started_at', 'startedAfter', 'startedBefore'),
  },
  deviceHistory: {
    name: 'Device.history',
    parentType: 'text',
    child: t.deviceHistory,
    children: (knex) => from(knex, t.deviceHistory).whereRaw('dh.device_id = p.parent_id'),
    filter: timeWindow('dh.occurred_at', 'occurredAfter', 'occurredBefore', anyOf('dh.event', 'events')),
  },
  deviceFields: {
    name: 'Device.fields',
    parentType: 'text',
    child: t.deviceFields,
    children: (knex) => from(knex, t.deviceFields).whereRaw('df.device_id = p.parent_id'),
    filter: anyOf('df.name', 'names'),
  },
  deviceReadings: {
    name: 'Device.readings',
    parentType: 'text',
    child: t.readings,
    children: (knex) => from(knex, t.readings).whereRaw('r.device_id = p.parent_id'),
    filter: timeWindow('r.recorded_at', 'recordedAfter', 'recordedBefore', anyOf('r.field', 'fields')),
  },
  deviceReadingsAnon: {
    name: 'Device.readingsAnon',
    parentType: 'text',
    child: t.readingsAnon,
    children: (knex) => knex.from(knex.raw(t.READINGS_BY_HOUR)).whereRaw('ra.device_id = p.parent_id'),
    filter: hourWindow('ra.recorded_hour', 'recordedAfter', 'recordedBefore', anyOf('ra.field', 'fields')),
  },
  deviceBatteryAnnotations: {
    name: 'Device.batteryAnnotations',
    parentType: 'text',
    child: t.batteryAnnotations,
    children: (knex) => from(knex, t.batteryAnnotations).whereRaw('ba.device_id = p.parent_id'),
    filter: timeWindow('ba.recorded_at', 'recordedAfter', 'recordedBefore'),
  },
} satisfies Record<string, RelationSpec>;

export type RelationName = keyof typeof relations;
