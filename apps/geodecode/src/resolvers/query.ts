import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { checkArgs, type GeodecodeArgs } from '../domain/args';
import { geodecode } from '../domain/geocoder';
import type { GeoLoaders } from '../loaders';

export const Query = {
  geodecode: (_: unknown, args: GeodecodeArgs, { loaders }: SubgraphContext<GeoLoaders>) =>
    geodecode(loaders.knex, checkArgs(args)),
};
