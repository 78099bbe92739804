import { DateTimeScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../reader';
import { Query } from './query';
import { Account, Device, Group, Vehicle } from './types';
import { withServices } from './services/index';
import {
  DeviceHistory,
  DeviceVehicleSession,
  Driver,
  DriverVehicleSession,
  Reading,
  Trip,
  TripHarsh,
  TripOverspeed,
  TripSummary,
} from './trips';

export const resolvers = withServices({
  DateTime: DateTimeScalar,
  Query,
  Account,
  Group,
  Device,
  Vehicle,
  Driver,
  DriverVehicleSession,
  DeviceVehicleSession,
  DeviceHistory,
  Trip,
  TripHarsh,
  TripOverspeed,
  TripSummary,
  Reading,
}) as unknown as Resolvers<FleetReader>;
