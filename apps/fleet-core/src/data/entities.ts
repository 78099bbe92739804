/**
 * Entity lookups by id, batched per request and filtered by visibility in SQL: an id the viewer
 * may not see resolves to null, exactly like an id that does not exist.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import { visibleAccounts, visibleDevices, visibleGroups, visibleVehicles } from '@fleetgraph/visibility';
import type { AccountModel, DeviceModel, GroupModel, ProductModel, VehicleModel } from './models';
import * as t from './tables';

function byKey<M extends Record<string, unknown>>(
  query: (keys: readonly string[]) => Promise<M[]>,
  field: keyof M & string,
): DataLoader<string, M | null> {
  return new DataLoader(async (keys) => {
    const rows = await query(keys);
    const map = new Map(rows.map((row) => [String(row[field]), row]));
    return keys.map((key) => map.get(key) ?? null);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids of uuid-keyed tables that are not uuids cannot exist; filter them before SQL casts them. */
const uuids = (keys: readonly string[]) => keys.filter((k) => UUID.test(k));

export function entityLoaders(knex: Knex, viewer: string) {
  const select = (spec: t.TableSpec) => knex(`${spec.table} as ${spec.alias}`).select(t.selectColumns(spec));
  return {
    account: byKey<AccountModel & Record<string, unknown>>(
      (keys) =>
        select(t.accounts).whereIn('a.id', uuids(keys)).whereIn('a.id', visibleAccounts(knex, viewer)),
      'id',
    ),
    group: byKey<GroupModel & Record<string, unknown>>(
      (keys) => select(t.groups).whereIn('g.id', uuids(keys)).whereIn('g.id', visibleGroups(knex, viewer)),
      'id',
    ),
    device: byKey<DeviceModel & Record<string, unknown>>(
      (keys) =>
        select(t.devices)
          .whereIn('d.id', keys as string[])
          .whereIn('d.id', visibleDevices(knex, viewer)),
      'id',
    ),
    vehicle: byKey<VehicleModel & Record<string, unknown>>(
      (keys) =>
        select(t.vehicles).whereIn('v.id', uuids(keys)).whereIn('v.id', visibleVehicles(knex, viewer)),
      'id',
    ),
    /** The device currently installed in a vehicle. */
    deviceByVehicle: byKey<DeviceModel & Record<string, unknown>>(
      (keys) =>
        select(t.devices)
          .whereIn('d.current_vehicle_id', uuids(keys))
          .whereIn('d.id', visibleDevices(knex, viewer)),
      'currentVehicleId',
    ),
    product: byKey<ProductModel & Record<string, unknown>>(
      (keys) => select(t.products).whereIn('pr.id', uuids(keys)),
      'id',
    ),
  };
}
