import type { Resolvers } from '@fleetgraph/subgraph-kit';
import type { VehicleDataReader } from '../reader';
import { dtcQueries } from './dtc';
import { vinQueries } from './vin';
import { coverageQueries } from './coverage';
import { plateQueries } from './plate';
import { alprQueries } from './alpr';

export const resolvers = {
  Query: { ...dtcQueries, ...vinQueries, ...coverageQueries, ...plateQueries, ...alprQueries },
} as unknown as Resolvers<VehicleDataReader>;
