import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { recognizePlate, type AlprInput } from '../alpr/recognize';
import type { VehicleDataLoaders } from '../services';

type Ctx = SubgraphContext<VehicleDataLoaders>;

export const alprQueries = {
  alpr: (_: unknown, args: AlprInput, { loaders, signal }: Ctx) => recognizePlate(loaders, args, signal),
};
