/**
 * Resolvers of the mobility subgraph. Every lookup goes through the per-request loaders (batched,
 * visibility in SQL); entities of fleet-core are referenced by key and contributed fields resolve
 * only for entities the caller sees (`__resolveReference` answers null otherwise).
 */
import type { GraphQLResolveInfo } from 'graphql';
import { pageOf, type PageArgs, type TableSpec } from '@fleetgraph/paging';
import {
  DateTimeScalar,
  listProjection,
  objectProjection,
  visibleId,
  visibleReference,
  type LookupOf,
  type Resolvers,
} from '@fleetgraph/subgraph-kit';
import { applyAnomalyFilters, presentFilters, sortOrder, type AnomalyFilters } from '../data/anomaly-filters';
import {
  anomalySpec,
  PAGE_RULES,
  TRANSACTION_SPEC,
  type AnomalyRow,
  type TransactionRow,
} from '../data/tables';
import { visibleIn } from '../data/visibility';
import { visibleRootList, type OrganizationWalk, type VisibilityForm } from '@fleetgraph/visibility';
import { relations, type MobilityLoaders } from '../loaders';

type Ctx = { loaders: MobilityLoaders };
type Args = Record<string, any>;

/**
 * Ids are data (subgraph-kit visible-ids.ts): a reference to a device, vehicle, driver or group
 * the viewer does not see is null, though the transaction is visible through another of them;
 * `detectedById`/`clearedById` hold an account id when a USER acted (else a rule version).
 */
const fleet = {
  device: ((c) => c.loaders.fleet.device) as LookupOf<Ctx>,
  vehicle: ((c) => c.loaders.fleet.vehicle) as LookupOf<Ctx>,
  driver: ((c) => c.loaders.fleet.driver) as LookupOf<Ctx>,
  group: ((c) => c.loaders.fleet.group) as LookupOf<Ctx>,
};
const fleetReferences = {
  device: visibleReference('Device', 'deviceId', fleet.device),
  vehicle: visibleReference('Vehicle', 'vehicleId', fleet.vehicle),
  driver: visibleReference('Driver', 'driverId', fleet.driver),
  group: visibleReference('Group', 'groupId', fleet.group),
};
const userAccount =
  (by: string): LookupOf<Ctx> =>
  (c, row) =>
    row[by] === 'USER' ? c.loaders.fleet.account : undefined;

type Info = GraphQLResolveInfo;

/** A nested page, selecting only the columns its selection reads (TableSpec.fieldNeeds). */
const page = (
  loaders: MobilityLoaders,
  relation: keyof MobilityLoaders['relations'],
  parentId: string,
  args: Args,
  info: Info,
) =>
  loaders.relations[relation].load({
    parentId,
    args,
    fields: listProjection(relations[relation].child, info),
  });

/** A transaction by id, reading only the columns the selection on it needs. */
const transaction = (loaders: MobilityLoaders, id: string, info: Info) =>
  loaders.transactions.fields(objectProjection(TRANSACTION_SPEC, info)).load(id);

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

async function anomaliesQuery(loaders: MobilityLoaders, args: Args, info: Info) {
  const { pageSize, pageId, sort, ...filters } = args;
  const order = sortOrder(sort);
  const spec = anomalySpec(order);
  const present = presentFilters(filters);
  return pageOf<AnomalyRow>({
    codec: loaders.codec,
    name: 'mobilityTransactionAnomalies',
    spec,
    rules: PAGE_RULES.anomalies,
    args: { pageSize, pageId } as PageArgs,
    filters: { ...present, sort: order.fields },
    ...(await anomalyRows(loaders, spec, filters as AnomalyFilters, Object.keys(present))),
    fields: listProjection(spec, info),
  });
}

/** The order the organization index (organization_id, detected_at, id) walks, either way. */
const WALKED_ORDER = 'a.detected_at,a.id';

/** Filters naming the anomalies' assets or transaction: each has an index that bounds the rows. */
const KEY_FILTERS = new Set(['deviceId', 'vehicleId', 'driverId', 'groupId', 'mobilityTransactionId']);

/** The list walks its organization in detection order (anomalies_org_detected_idx). */
const walkOf = (spec: TableSpec): OrganizationWalk => ({
  organization: 'a.organization_id',
  order: spec.order,
  lowest: "'-infinity'::timestamptz",
});

/**
 * The visible anomalies matching `filters`, as pageOf's base (and countBase): by an asset or
 * transaction, that key's index bounds the rows; other filters, or a sort the organization index
 * does not serve, read the visible sets; neither lets the viewer's scope decide (visibleRootList).
 */
function anomalyRows(loaders: MobilityLoaders, spec: TableSpec, filters: AnomalyFilters, given: string[]) {
  const { knex, viewer } = loaders;
  const bound = given.some((f) => KEY_FILTERS.has(f))
    ? 'key'
    : given.length > 0 || spec.order.columns.join() !== WALKED_ORDER
      ? 'set'
      : 'scope';
  const rows = () => applyAnomalyFilters(knex(`${spec.table} as a`), filters);
  const visible = (form: VisibilityForm) => visibleIn(knex, 'a', viewer, form);
  return visibleRootList(rows, bound, visible, walkOf(spec), () => loaders.listScope);
}

export const resolvers: Resolvers<MobilityLoaders> = {
  DateTime: DateTimeScalar,
  Query: {
    mobilityTransaction: (_: unknown, args: Args, { loaders }: Ctx, info: Info) =>
      transaction(loaders, String(args.id), info),
    mobilityTransactionAnomalies: (_: unknown, args: Args, { loaders }: Ctx, info: Info) =>
      anomaliesQuery(loaders, args, info),
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
    ...fleetReferences,
    mobilityTransactionAnomalies: (t: TransactionRow, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'transactionAnomalies', t.id, args, info),
  },
  MobilityTransactionAnomaly: {
    __resolveReference: (r: { id: string }, { loaders }: Ctx) => loaders.anomalies.load(String(r.id)),
    transaction: (a: AnomalyRow, _: Args, { loaders }: Ctx, info: Info) =>
      transaction(loaders, a.transactionId, info),
    evidence: (a: AnomalyRow) => (a.evidenceJson == null ? null : JSON.stringify(a.evidenceJson)),
    ...fleetReferences,
    detectedById: visibleId('detectedById', userAccount('detectedBy')),
    clearedById: visibleId('clearedById', userAccount('clearedBy')),
  },
  Device: {
    __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
      (await loaders.fleet.device.load(String(r.id))) ? { id: String(r.id) } : null,
    mobilityTransactions: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'deviceTransactions', d.id, args, info),
    mobilityTransactionAnomalies: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'deviceAnomalies', d.id, args, info),
    mobilityTransactionStatistics: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'device', 'transactions', d.id, args),
    mobilityTransactionAnomalyStatistics: (d: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'device', 'anomalies', d.id, args),
  },
  Group: {
    __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
      (await loaders.fleet.group.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
    mobilityTransactions: (g: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'groupTransactions', g.id, args, info),
    mobilityTransactionAnomalies: (g: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'groupAnomalies', g.id, args, info),
    mobilityTransactionStatistics: (g: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'group', 'transactions', g.id, args),
    mobilityTransactionAnomalyStatistics: (g: { id: string }, args: Args, { loaders }: Ctx) =>
      stats(loaders, 'group', 'anomalies', g.id, args),
  },
  Driver: {
    __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
      (await loaders.fleet.driver.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
    mobilityTransactions: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'driverTransactions', d.id, args, info),
    mobilityTransactionAnomalies: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
      page(loaders, 'driverAnomalies', d.id, args, info),
  },
} as Resolvers<MobilityLoaders>;
