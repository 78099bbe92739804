import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { decodePlate } from '../plate/resolve';
import type { VehicleDataLoaders } from '../services';

type Ctx = SubgraphContext<VehicleDataLoaders>;

export const plateQueries = {
  decodePlate: (_: unknown, args: { plate: string; country: string }, { loaders }: Ctx) =>
    decodePlate(loaders, args.plate, args.country),
};
