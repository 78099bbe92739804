import { DateTimeScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import type { FleetLoaders } from '../loaders';
import { Query } from './query';
import { Account, Device, Group, Vehicle } from './types';

export const resolvers = {
  DateTime: DateTimeScalar,
  Query,
  Account,
  Group,
  Device,
  Vehicle,
} as unknown as Resolvers<FleetLoaders>;
