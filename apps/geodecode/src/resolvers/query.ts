import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { checkArgs, type GeodecodeArgs } from '../domain/args';
import { geodecode } from '../domain/geocoder';
import type { GeoReader } from '../reader';

export const Query = {
  geodecode: (_: unknown, args: GeodecodeArgs, { reader }: SubgraphContext<GeoReader>) =>
    geodecode(reader.knex, checkArgs(args)),
};
