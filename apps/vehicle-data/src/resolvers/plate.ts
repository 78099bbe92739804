import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { decodePlate } from '../domain/plate/resolve';
import type { VehicleDataReader } from '../reader';

type Ctx = SubgraphContext<VehicleDataReader>;

export const plateQueries = {
  decodePlate: (_: unknown, args: { plate: string; country: string }, { reader }: Ctx) =>
    decodePlate(reader, args.plate, args.country),
};
