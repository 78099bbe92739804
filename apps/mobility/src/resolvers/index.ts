/**
 * Resolvers of the mobility subgraph, one module per type family. Every lookup goes through the
 * per-request reader (batched, visibility in SQL); entities of fleet-core are referenced by key
 * and contributed fields resolve only for entities the caller sees (`__resolveReference` answers
 * null otherwise).
 */
import { DateTimeScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import type { MobilityReader } from '../reader';
import { anomalyResolvers } from './anomalies';
import { deviceResolvers, driverResolvers, groupResolvers } from './fleet-entities';
import { queryResolvers } from './query';
import { transactionResolvers } from './transactions';

export const resolvers = {
  DateTime: DateTimeScalar,
  Query: queryResolvers,
  MobilityTransaction: transactionResolvers,
  MobilityTransactionAnomaly: anomalyResolvers,
  Device: deviceResolvers,
  Group: groupResolvers,
  Driver: driverResolvers,
} as Resolvers<MobilityReader>;
