import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../reader';
import type { GraphQLResolveInfo } from 'graphql';
import * as t from '../data/tables';
import { objectProjection } from '@fleetgraph/subgraph-kit';
import { page } from './list';
import type { AccountModel, DeviceModel, GroupModel, VehicleModel } from '../data/models';
import { AccountDriverFields, DeviceTripFields, GroupDriverFields, VehicleTripFields } from './trips';

type Ctx = SubgraphContext<FleetReader>;

/** Entities resolve by id through the same visibility-filtered, batched loaders. */
const reference =
  (loader: 'account' | 'group' | 'device' | 'vehicle') =>
  (ref: { id: string }, { reader }: Ctx) =>
    reader[loader].load(String(ref.id));

export const Account = {
  __resolveReference: reference('account'),
  groups: page('accountGroups'),
  devices: page('accountDevices'),
  vehicles: page('accountVehicles'),
  ...AccountDriverFields,
};

export const Group = {
  __resolveReference: reference('group'),
  owner: (group: GroupModel, _: unknown, { reader }: Ctx, info: GraphQLResolveInfo) =>
    group.ownerId ? reader.account.fields(objectProjection(t.accounts, info)).load(group.ownerId) : null,
  devices: page('groupDevices'),
  vehicles: page('groupVehicles'),
  parents: page('groupParents'),
  children: page('groupChildren'),
  users: page('groupUsers'),
  ...GroupDriverFields,
};

export const Device = {
  __resolveReference: reference('device'),
  owner: (device: DeviceModel, _: unknown, { reader }: Ctx, info: GraphQLResolveInfo) =>
    device.ownerId ? reader.account.fields(objectProjection(t.accounts, info)).load(device.ownerId) : null,
  currentVehicle: (device: DeviceModel, _: unknown, { reader }: Ctx, info: GraphQLResolveInfo) =>
    device.currentVehicleId
      ? reader.vehicle.fields(objectProjection(t.vehicles, info)).load(device.currentVehicleId)
      : null,
  product: (device: DeviceModel, _: unknown, { reader }: Ctx) =>
    device.productId ? reader.product.load(device.productId) : null,
  vehicles: page('deviceVehicles'),
  groups: page('deviceGroups'),
  ...DeviceTripFields,
};

export const Vehicle = {
  __resolveReference: reference('vehicle'),
  currentDevice: (vehicle: VehicleModel, _: unknown, { reader }: Ctx) =>
    reader.deviceByVehicle.load(vehicle.id),
  groups: page('vehicleGroups'),
  ...VehicleTripFields,
};

export type { AccountModel };
