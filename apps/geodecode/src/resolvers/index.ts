import type { Resolvers } from '@fleetgraph/subgraph-kit';
import type { GeoReader } from '../reader';
import { Query } from './query';

export const resolvers = { Query } as unknown as Resolvers<GeoReader>;
