import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { recognizePlate, type AlprInput } from '../domain/alpr/recognize';
import type { VehicleDataLoaders } from '../loaders';

type Ctx = SubgraphContext<VehicleDataLoaders>;

export const alprQueries = {
  alpr: (_: unknown, args: AlprInput, { loaders, signal }: Ctx) => recognizePlate(loaders, args, signal),
};
