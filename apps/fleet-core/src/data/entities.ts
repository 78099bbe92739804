/**
 * Entity lookups by id, batched per request and filtered by visibility in SQL: an id the viewer
 * may not see resolves to null, exactly like an id that does not exist.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import {
  visibleAccounts,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from '@fleetgraph/visibility';
import type {
  AccountModel,
  DeviceModel,
  DriverModel,
  GroupModel,
  ProductModel,
  TripMetadatumModel,
  TripModel,
  VehicleModel,
} from './models';
import * as t from './tables';
import { anyOf, byKey, normalizeKey, uuidsOnly } from '@fleetgraph/paging';

const uuids = uuidsOnly;

export function entityLoaders(knex: Knex, viewer: string) {
  const select = (spec: t.TableSpec) => knex(`${spec.table} as ${spec.alias}`).select(t.selectColumns(spec));
  return {
    account: byKey<AccountModel & Record<string, unknown>>(
      (keys) =>
        select(t.accounts)
          .whereRaw(anyOf('a.id', 'uuid'), [uuids(keys)])
          .whereIn('a.id', visibleAccounts(knex, viewer)),
      'id',
      'uuid',
    ),
    group: byKey<GroupModel & Record<string, unknown>>(
      (keys) =>
        select(t.groups)
          .whereRaw(anyOf('g.id', 'uuid'), [uuids(keys)])
          .whereIn('g.id', visibleGroups(knex, viewer)),
      'id',
      'uuid',
    ),
    device: byKey<DeviceModel & Record<string, unknown>>(
      (keys) =>
        select(t.devices)
          .whereRaw(anyOf('d.id', 'text'), [[...keys]])
          .whereIn('d.id', visibleDevices(knex, viewer)),
      'id',
      'text',
    ),
    vehicle: byKey<VehicleModel & Record<string, unknown>>(
      (keys) =>
        select(t.vehicles)
          .whereRaw(anyOf('v.id', 'uuid'), [uuids(keys)])
          .whereIn('v.id', visibleVehicles(knex, viewer)),
      'id',
      'uuid',
    ),
    /** The device currently installed in a vehicle. */
    deviceByVehicle: byKey<DeviceModel & Record<string, unknown>>(
      (keys) =>
        select(t.devices)
          .whereRaw(anyOf('d.current_vehicle_id', 'uuid'), [uuids(keys)])
          .whereIn('d.id', visibleDevices(knex, viewer)),
      'currentVehicleId',
      'uuid',
    ),
    product: byKey<ProductModel & Record<string, unknown>>(
      (keys) => select(t.products).whereRaw(anyOf('pr.id', 'uuid'), [uuids(keys)]),
      'id',
      'uuid',
    ),
    driver: byKey<DriverModel & Record<string, unknown>>(
      (keys) =>
        select(t.drivers)
          .whereRaw(anyOf('dr.id', 'uuid'), [uuids(keys)])
          .whereIn('dr.id', visibleDrivers(knex, viewer)),
      'id',
      'uuid',
    ),
    /** The driver profile of an account (drivers.user_profile_id), the oldest when several. */
    driverByProfile: byKey<DriverModel & Record<string, unknown>>(
      (keys) =>
        select(t.drivers)
          .distinctOn('dr.user_profile_id')
          .whereRaw(anyOf('dr.user_profile_id', 'uuid'), [uuids(keys)])
          .whereIn('dr.id', visibleDrivers(knex, viewer))
          .orderBy([{ column: 'dr.user_profile_id' }, { column: 'dr.created_at' }, { column: 'dr.id' }]),
      'userProfileId',
      'uuid',
    ),
    /** The driver currently driving a vehicle (drivers.current_vehicle_id). */
    driverByVehicle: byKey<DriverModel & Record<string, unknown>>(
      (keys) =>
        select(t.drivers)
          .distinctOn('dr.current_vehicle_id')
          .whereRaw(anyOf('dr.current_vehicle_id', 'uuid'), [uuids(keys)])
          .whereIn('dr.id', visibleDrivers(knex, viewer))
          .orderBy([{ column: 'dr.current_vehicle_id' }, { column: 'dr.updated_at', order: 'desc' }]),
      'currentVehicleId',
      'uuid',
    ),
    metadatum: byKey<TripMetadatumModel & Record<string, unknown>>(
      (keys) =>
        select(t.tripMetadata)
          .join('fleet.trips as vt', 'vt.id', 'tm.trip_id')
          .whereRaw(anyOf('tm.id', 'uuid'), [uuids(keys)])
          .where((q) => tripVisible(q, 'vt', knex, viewer)),
      'id',
      'uuid',
    ),
    lastTripOfDevice: lastTrip(knex, 'device_id', 'text'),
    lastTripOfVehicle: lastTrip(knex, 'vehicle_id', 'uuid'),
    lastTripOfDriver: lastTrip(knex, 'driver_id', 'uuid'),
  };
}

/**
 * A trip is visible when its device, its vehicle or its driver is: the same rule as the nested
 * Device.trips, Vehicle.trips and Driver.trips lists, whose parents are visible. Applied to trip
 * rows already narrowed by id (a condition on the row, never a scan of all trips).
 */
export function tripVisible(query: Knex.QueryBuilder, alias: string, knex: Knex, viewer: string): void {
  query
    .whereIn(`${alias}.device_id`, visibleDevices(knex, viewer))
    .orWhereIn(`${alias}.vehicle_id`, visibleVehicles(knex, viewer))
    .orWhereIn(`${alias}.driver_id`, visibleDrivers(knex, viewer));
}

/**
 * The newest trip of each parent (device, vehicle or driver), one statement for all parents:
 * an index-only descent of (owner_id, started_at desc, id desc) per parent. The parent was
 * already loaded through visibility, so its trips are visible.
 */
function lastTrip(knex: Knex, column: string, parentType: 'uuid' | 'text') {
  const normalize = normalizeKey(parentType);
  return new DataLoader<string, TripModel | null, string>(
    async (given) => {
      const keys = given.map(normalize);
      const ids = parentType === 'uuid' ? uuids(keys) : keys;
      const inner = knex(`${t.trips.table} as t`)
        .select(t.selectColumns(t.trips))
        .whereRaw(`t.${column} = p.parent_id`)
        .orderBy([
          { column: 't.started_at', order: 'desc' },
          { column: 't.id', order: 'desc' },
        ])
        .limit(1);
      const rows: Array<TripModel & { __parent: string }> = (
        await knex.raw(
          `select p.parent_id as "__parent", t.* from unnest(?::${parentType}[]) as p(parent_id) cross join lateral (?) t`,
          [ids, inner],
        )
      ).rows;
      const byParent = new Map(rows.map(({ __parent, ...row }) => [String(__parent), row as TripModel]));
      return keys.map((key) => byParent.get(key) ?? null);
    },
    { cacheKeyFn: normalize },
  );
}
