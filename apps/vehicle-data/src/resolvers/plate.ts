import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { decodePlate } from '../domain/plate/resolve';
import type { VehicleDataLoaders } from '../loaders';

type Ctx = SubgraphContext<VehicleDataLoaders>;

export const plateQueries = {
  decodePlate: (_: unknown, args: { plate: string; country: string }, { loaders }: Ctx) =>
    decodePlate(loaders, args.plate, args.country),
};
