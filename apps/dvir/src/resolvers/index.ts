import { DateTimeScalar, JsonScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import type { DvirLoaders } from '../loaders';
import { Query } from './query';
import * as types from './types';

export const resolvers: Resolvers<DvirLoaders> = {
  DateTime: DateTimeScalar,
  Json: JsonScalar,
  Query,
  ...types,
} as unknown as Resolvers<DvirLoaders>;
