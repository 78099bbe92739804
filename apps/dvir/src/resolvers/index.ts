import { DateTimeScalar, JsonScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import type { DvirReader } from '../reader';
import { Query } from './query';
import * as types from './types';

export const resolvers: Resolvers<DvirReader> = {
  DateTime: DateTimeScalar,
  Json: JsonScalar,
  Query,
  ...types,
} as unknown as Resolvers<DvirReader>;
