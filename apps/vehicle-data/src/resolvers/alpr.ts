import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { recognizePlate, type AlprInput } from '../domain/alpr/recognize';
import type { VehicleDataReader } from '../reader';

type Ctx = SubgraphContext<VehicleDataReader>;

export const alprQueries = {
  alpr: (_: unknown, args: AlprInput, { reader, signal }: Ctx) => recognizePlate(reader, args, signal),
};
