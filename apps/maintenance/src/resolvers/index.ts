/**
 * Resolvers of the maintenance subgraph, one module per type family: root queries, the
 * maintenance types, and the fields contributed to fleet-core's Vehicle. Every lookup goes through
 * the per-request reader (visibility applied in SQL); an id the caller cannot see answers null
 * exactly like an unknown one; a malformed id answers null too.
 */
import { DateTimeScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import type { MaintenanceReader } from '../reader';
import { historyQueries, historyResolvers } from './history';
import { templateQueries, templateResolvers, thresholdResolvers } from './templates';
import { upcomingQueries, upcomingResolvers, vehicleResolvers } from './upcoming';

export const resolvers = {
  DateTime: DateTimeScalar,
  Query: { ...templateQueries, ...historyQueries, ...upcomingQueries },
  MaintenanceTemplate: templateResolvers,
  MaintenanceCriticalityThreshold: thresholdResolvers,
  MaintenanceHistorical: historyResolvers,
  MaintenanceUpcoming: upcomingResolvers,
  Vehicle: vehicleResolvers,
} as unknown as Resolvers<MaintenanceReader>;
