/**
 * Resolvers of the mobility subgraph. Every lookup goes through the per-request loaders (batched,
 * visibility in SQL); entities of fleet-core are referenced by key and contributed fields resolve
 * only for entities the caller sees (`__resolveReference` answers null otherwise).
 */
import { pageOf, type PageArgs } from '@fleetgraph/paging';
import { DateTimeScalar, type Resolvers } from '@fleetgraph/subgraph-kit';
import { applyAnomalyFilters, presentFilters, sortOrder, type AnomalyFilters } from '../data/anomaly-filters';
import { anomalySpec, PAGE_RULES, type AnomalyRow, type TransactionRow } from '../data/tables';
import { whereVisible } from '../data/visibility';
import type { MobilityLoaders } from '../loaders';

type Ctx = { loaders: MobilityLoaders };
type Args = Record<string, any>;

const ref = (typename: string, id: string | null | undefined) => (id ? { __typename: typename, id } : null);

const page = (
  loaders: MobilityLoaders,
  relation: keyof MobilityLoaders['relations'],
  parentId: string,
  args: Args,
) => loaders.relations[relation].load({ parentId, args });

const stats = (
  loaders: MobilityLoaders,
  kind: 'device' | 'group',
  what: 'transactions' | 'anomalies',
  parentId: string,
  args: Args,
) =>
  loaders.statistics.load({
    kind,
    what,
    parentId,
    args: {
      from: args.from ?? null,
      to: args.to ?? null,
      period: args.period ?? null,
      groupBy: args.groupBy ?? null,
    },
  });

async function anomaliesQuery(loaders: MobilityLoaders, args: Args) {
  const { pageSize, pageId, sort, ...filters } = args;
  const order = sortOrder(sort);
  const spec = anomalySpec(order);
  const base = applyAnomalyFilters(
    whereVisible(loaders.knex, loaders.knex(`${spec.table} as a`), 'a', loaders.viewer),
    filters as AnomalyFilters,
  );
  return pageOf<AnomalyRow>({
    codec: loaders.codec,
    name: 'mobilityTransactionAnomalies',
    spec,
    rules: PAGE_RULES.anomalies,
    args: { pageSize, pageId } as PageArgs,
    filters: { ...presentFilters(filters), sort: order.fields },
    base,
  });
}

export const resolvers: Resolvers<MobilityLoaders> = {
  DateTime: DateTimeScalar,
  Query: {
    mobilityTransaction: (_: unknown, args: Args, { loaders }: Ctx) =>
      loaders.transactions.load(String(args.id)),
    mobilityTransactionAnomalies: (_: unknown, args: Args, { loaders }: Ctx) => anomaliesQuery(loaders, args),
  },
  MobilityTransaction: {
    __resolveReference: (r: { id: string }, { loaders }: Ctx) => loaders.transactions.load(String(r.id)),
    hasAnomalies: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
      (await loaders.anomalyCounts.load(t.id)).total > 0,
    hasActiveAnomalies: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
      (await loaders.anomalyCounts.load(t.id)).active > 0,
    anomaliesCount: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
      (await loaders.anomalyCounts.load(t.id)).total,
    activeAnomaliesCount: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
      (await loaders.anomalyCounts.load(t.id)).active,
    odometerKm: (t: TransactionRow) => t.odometerKm,
    device: (t: TransactionRow) => ref('Device', t.deviceId),
    vehicle: (t: TransactionRow) => ref('Vehicle', t.vehicleId),
    driver: (t: TransactionRow) => ref('Driver', t.driverId),
    group: (t: TransactionRow) => ref('Group', t.groupId),
    mobilityTransactionAnomalies: (t: TransactionRow, args: Args, { loaders }: Ctx) =>
      page(loaders, 'transactionAnomalies', t.id, args),
  },
  MobilityTransactionAnomaly: {
    __resolveReference: (r: { id: string }, { loaders }: Ctx) => loaders.anomalies.load(String(r.id)),
    transaction: (a: AnomalyRow, _: Args, { loaders }: Ctx) => loaders.transactions.load(a.transactionId),
    evidence: (a: AnomalyRow) => (a.evidenceJson == null ? null : JSON.stringify(a.evidenceJson)),
    device: (a: AnomalyRow) => ref('Device', a.deviceId),
    vehicle: (a: AnomalyRow) => ref('Vehicle', a.vehicleId),
    driver: (a: AnomalyRow) => ref('Driver', a.driverId),
    group: (a: AnomalyRow) => ref('Group', a.groupId),
  },
  Device: {
    __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
      (await loaders.visibleDevice.load(String(r.id))) ? { id: String(r.id) } : null,
    mobilityTransactions: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      page(loaders, 'deviceTransactions', d.id, args),
    mobilityTransactionAnomalies: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      page(loaders, 'deviceAnomalies', d.id, args),
    mobilityTransactionStatistics: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'device', 'transactions', d.id, args),
    mobilityTransactionAnomalyStatistics: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'device', 'anomalies', d.id, args),
  },
  Group: {
    __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
      (await loaders.visibleGroup.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
    mobilityTransactions: (g: { id: string }, args: Args, { loaders }: Ctx) =>
      page(loaders, 'groupTransactions', g.id, args),
    mobilityTransactionAnomalies: (g: { id: string }, args: Args, { loaders }: Ctx) =>
      page(loaders, 'groupAnomalies', g.id, args),
    mobilityTransactionStatistics: (g: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'group', 'transactions', g.id, args),
    mobilityTransactionAnomalyStatistics: (g: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'group', 'anomalies', g.id, args),
  },
  Driver: {
    __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
      (await loaders.visibleDriver.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
    mobilityTransactions: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      page(loaders, 'driverTransactions', d.id, args),
    mobilityTransactionAnomalies: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      page(loaders, 'driverAnomalies', d.id, args),
  },
} as Resolvers<MobilityLoaders>;
