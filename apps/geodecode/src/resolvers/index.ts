import type { Resolvers } from '@fleetgraph/subgraph-kit';
import type { GeoLoaders } from '../loaders';
import { Query } from './query';

export const resolvers = { Query } as unknown as Resolvers<GeoLoaders>;
