/**
 * Entity lookups by id, batched per request and filtered by visibility in SQL: an id the viewer
 * may not see resolves to null, exactly like an id that does not exist. Visibility is tested per
 * row (`deviceVisibleTo`...): a batch of ids costs a few index probes each, not the viewer's
 * whole visible set.
 */
import DataLoader from 'dataloader';
import type { Viewer } from '@fleetgraph/auth';
import type { Knex } from 'knex';
import {
  accountVisibleTo,
  anyAssetVisible,
  deviceVisibleTo,
  driverVisibleTo,
  groupVisibleTo,
  vehicleVisibleTo,
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
import { sqlTemplate, type SqlTemplate } from '@fleetgraph/db';
import { keyLookup, normalizeKey, rowsPerParent, uuidsOnly, type KeyKind } from '@fleetgraph/paging';

const uuids = uuidsOnly;

type ViewerParams = { viewer: Viewer };
const rowsOf = (knex: Knex, spec: t.TableSpec, projection?: readonly string[]) =>
  knex(`${spec.table} as ${spec.alias}`).select(t.selectColumns(spec, projection));
const byId = (column: string, kind: KeyKind = 'uuid') => ({ column, field: 'id', kind });

/** One visible driver per value of drivers.<column> (a model's <field>), the first by `first`. */
function visibleDriverBy(column: string, field: string, first: Array<{ column: string; order?: 'desc' }>) {
  return keyLookup<ViewerParams>({ column: `dr.${column}`, field, kind: 'uuid' }, ['viewer'], (knex, p) =>
    rowsOf(knex, t.drivers)
      .distinctOn(`dr.${column}`)
      .where(driverVisibleTo(knex, p.viewer, 'dr.id'))
      .orderBy([{ column: `dr.${column}` }, ...first]),
  );
}

/**
 * The lookups' statements, compiled once per process (keyLookup): a request binds its ids and
 * its viewer, one statement text whatever the number of ids.
 */
const lookups = {
  /** The viewer's own account: always visible, so read without the visibility test. */
  self: keyLookup(byId('a.id'), [], (knex, _p, projection) => rowsOf(knex, t.accounts, projection)),
  account: keyLookup<ViewerParams>(byId('a.id'), ['viewer'], (knex, p, projection) =>
    rowsOf(knex, t.accounts, projection).where(accountVisibleTo(knex, p.viewer, 'a.id')),
  ),
  group: keyLookup<ViewerParams>(byId('g.id'), ['viewer'], (knex, p) =>
    rowsOf(knex, t.groups).where(groupVisibleTo(knex, p.viewer, 'g.id')),
  ),
  device: keyLookup<ViewerParams>(byId('d.id', 'text'), ['viewer'], (knex, p) =>
    rowsOf(knex, t.devices).where(deviceVisibleTo(knex, p.viewer, 'd.id')),
  ),
  vehicle: keyLookup<ViewerParams>(byId('v.id'), ['viewer'], (knex, p, projection) =>
    rowsOf(knex, t.vehicles, projection).where(vehicleVisibleTo(knex, p.viewer, 'v.id')),
  ),
  deviceByVehicle: keyLookup<ViewerParams>(
    { column: 'd.current_vehicle_id', field: 'currentVehicleId', kind: 'uuid' },
    ['viewer'],
    (knex, p) => rowsOf(knex, t.devices).where(deviceVisibleTo(knex, p.viewer, 'd.id')),
  ),
  product: keyLookup(byId('pr.id'), [], (knex) => rowsOf(knex, t.products)),
  driver: keyLookup<ViewerParams>(byId('dr.id'), ['viewer'], (knex, p) =>
    rowsOf(knex, t.drivers).where(driverVisibleTo(knex, p.viewer, 'dr.id')),
  ),
  /** The oldest driver profile of an account. */
  driverByProfile: visibleDriverBy('user_profile_id', 'userProfileId', [
    { column: 'dr.created_at' },
    { column: 'dr.id' },
  ]),
  /** The driver who last took a vehicle. */
  driverByVehicle: visibleDriverBy('current_vehicle_id', 'currentVehicleId', [
    { column: 'dr.updated_at', order: 'desc' },
  ]),
  metadatum: keyLookup<ViewerParams>(byId('tm.id'), ['viewer'], (knex, p) =>
    rowsOf(knex, t.tripMetadata)
      .join('fleet.trips as vt', 'vt.id', 'tm.trip_id')
      .where((q) => tripVisible(q, 'vt', knex, p.viewer)),
  ),
};

type Model<M> = M & Record<string, unknown>;

type Args = { knex: Knex; viewer: Viewer };

/** The entity loaders, each made on first use in a request (lazyFields in ../reader.ts). */
export const entityLoaderMakers = {
  self: lookups.self.maker<Model<AccountModel>>(),
  account: lookups.account.maker<Model<AccountModel>>(),
  group: lookups.group.maker<Model<GroupModel>>(),
  device: lookups.device.maker<Model<DeviceModel>>(),
  vehicle: lookups.vehicle.maker<Model<VehicleModel>>(),
  /** The device currently installed in a vehicle. */
  deviceByVehicle: lookups.deviceByVehicle.maker<Model<DeviceModel>>(),
  product: lookups.product.maker<Model<ProductModel>>(),
  driver: lookups.driver.maker<Model<DriverModel>>(),
  /** The driver profile of an account (drivers.user_profile_id), the oldest when several. */
  driverByProfile: lookups.driverByProfile.maker<Model<DriverModel>>(),
  /** The driver currently driving a vehicle (drivers.current_vehicle_id). */
  driverByVehicle: lookups.driverByVehicle.maker<Model<DriverModel>>(),
  metadatum: lookups.metadatum.maker<Model<TripMetadatumModel>>(),
  lastTripOfDevice: ({ knex }: Args) => lastTrip(knex, 'device_id', 'text'),
  lastTripOfVehicle: ({ knex }: Args) => lastTrip(knex, 'vehicle_id', 'uuid'),
  lastTripOfDriver: ({ knex }: Args) => lastTrip(knex, 'driver_id', 'uuid'),
};

/**
 * A trip is visible when its device, its vehicle or its driver is: the same rule as the nested
 * Device.trips, Vehicle.trips and Driver.trips lists, whose parents are visible. Applied to trip
 * rows already narrowed by id (a condition on the row, never a scan of all trips).
 */
export function tripVisible(query: Knex.QueryBuilder, alias: string, knex: Knex, viewer: Viewer): void {
  const columns = {
    device: `${alias}.device_id`,
    vehicle: `${alias}.vehicle_id`,
    driver: `${alias}.driver_id`,
  };
  anyAssetVisible(knex, viewer, columns, 'row')(query);
}

/**
 * The newest trip of each parent (device, vehicle or driver), one statement for all parents:
 * an index-only descent of (owner_id, started_at desc, id desc) per parent. The parent was
 * already loaded through visibility, so its trips are visible.
 */
type TripOwner = 'device_id' | 'vehicle_id' | 'driver_id';
const lastTrips = new Map<TripOwner, SqlTemplate<{ ids: string[] }>>();

/** The statement of `lastTrip` for one owner column, compiled once. */
function lastTripsOf(column: TripOwner, parentType: KeyKind): SqlTemplate<{ ids: string[] }> {
  let template = lastTrips.get(column);
  if (!template) {
    template = sqlTemplate<{ ids: string[] }>(['ids'], (knex, p) => {
      const inner = knex(`${t.trips.table} as t`)
        .select(t.selectColumns(t.trips))
        .whereRaw(`t.${column} = p.parent_id`)
        .orderBy([
          { column: 't.started_at', order: 'desc' },
          { column: 't.id', order: 'desc' },
        ])
        .limit(1);
      return knex.raw(rowsPerParent(parentType), [p.ids, inner]);
    });
    lastTrips.set(column, template);
  }
  return template;
}

function lastTrip(knex: Knex, column: TripOwner, parentType: KeyKind) {
  const normalize = normalizeKey(parentType);
  const statement = lastTripsOf(column, parentType);
  return new DataLoader<string, TripModel | null, string>(
    async (given) => {
      const keys = given.map(normalize);
      const ids = parentType === 'uuid' ? uuids(keys) : keys;
      const rows = await statement.rows<TripModel & { __parent: string }>(knex, { ids });
      // Rows are used as they come (`__parent` is never resolved): no copy per row.
      const byParent = new Map<string, TripModel>();
      for (const row of rows) byParent.set(String(row.__parent), row);
      return keys.map((key) => byParent.get(key) ?? null);
    },
    { cacheKeyFn: normalize },
  );
}
