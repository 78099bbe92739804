/**
 * The per-request reader: transaction and anomaly lookups, anomaly counts, entity visibility checks
 * (`__resolveReference`), nested pages (LATERAL-batched) and statistics, for one viewer; each
 * made on first use.
 */
import { arrayParameter } from '@fleetgraph/db';
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import type { UserContext, Viewer } from '@fleetgraph/auth';
import {
  from,
  keyLookup,
  relationLoaders,
  selectColumns,
  uuidsOnly,
  type CursorCodec,
  type RelationSpec,
  type TableSpec,
} from '@fleetgraph/paging';
import { lazyFields } from '@fleetgraph/subgraph-kit';
import { statisticsLoader } from './data/statistics';
import { ANOMALY_SPEC, TRANSACTION_SPEC, type AnomalyRow, type TransactionRow } from './data/tables';
import { whereVisible } from './data/visibility';
import { fleetVisibility, type ListScopeCache } from '@fleetgraph/visibility';

export interface MobilityResources {
  knex: Knex;
  codec: CursorCodec;
  now: () => Date;
  /** How the root list of anomalies reads visibility, per account (kept a minute per process). */
  listScopes: ListScopeCache;
}

type Filters = Record<string, unknown>;
const txWindow = (query: Knex.QueryBuilder, f: Filters) => {
  if (f.transactedAtAfter != null) query.where('t.transacted_at', '>=', f.transactedAtAfter as Date);
  if (f.transactedAtBefore != null) query.where('t.transacted_at', '<', f.transactedAtBefore as Date);
};
const anomalyWindow = (query: Knex.QueryBuilder, f: Filters) => {
  if (f.active != null) query.where('a.active', f.active as boolean);
  if (f.detectedAtAfter != null) query.where('a.detected_at', '>=', f.detectedAtAfter as Date);
  if (f.detectedAtBefore != null) query.where('a.detected_at', '<', f.detectedAtBefore as Date);
};
const GROUP_SCOPE = (column: string) =>
  `${column} in (select ga.descendant_id from fleet_contract.group_ancestors_v1 ga where ga.ancestor_id = p.parent_id)`;

/**
 * Nested relations. Their parents are checked visible before (an invisible Device/Group/Driver or
 * transaction resolves to null), and whatever hangs under a visible parent is visible.
 */
export const relations = {
  deviceTransactions: {
    name: 'Device.mobilityTransactions',
    parentType: 'text',
    child: TRANSACTION_SPEC,
    children: (knex) => knex(`${TRANSACTION_SPEC.table} as t`).whereRaw('t.device_id = p.parent_id'),
    filter: txWindow,
  },
  groupTransactions: {
    name: 'Group.mobilityTransactions',
    parentType: 'uuid',
    child: TRANSACTION_SPEC,
    children: (knex) => knex(`${TRANSACTION_SPEC.table} as t`).whereRaw(GROUP_SCOPE('t.group_id')),
    filter: txWindow,
  },
  driverTransactions: {
    name: 'Driver.mobilityTransactions',
    parentType: 'uuid',
    child: TRANSACTION_SPEC,
    children: (knex) => knex(`${TRANSACTION_SPEC.table} as t`).whereRaw('t.driver_id = p.parent_id'),
    filter: txWindow,
  },
  deviceAnomalies: {
    name: 'Device.mobilityTransactionAnomalies',
    parentType: 'text',
    child: ANOMALY_SPEC,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw('a.device_id = p.parent_id'),
    filter: anomalyWindow,
  },
  groupAnomalies: {
    name: 'Group.mobilityTransactionAnomalies',
    parentType: 'uuid',
    child: ANOMALY_SPEC,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw(GROUP_SCOPE('a.group_id')),
    filter: anomalyWindow,
  },
  driverAnomalies: {
    name: 'Driver.mobilityTransactionAnomalies',
    parentType: 'uuid',
    child: ANOMALY_SPEC,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw('a.driver_id = p.parent_id'),
    filter: anomalyWindow,
  },
  transactionAnomalies: {
    name: 'MobilityTransaction.mobilityTransactionAnomalies',
    parentType: 'uuid',
    child: ANOMALY_SPEC,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw('a.transaction_id = p.parent_id'),
    filter: anomalyWindow,
  },
} satisfies Record<string, RelationSpec>;

type RelationName = keyof typeof relations;

type ViewerParams = { viewer: Viewer };
type ReaderArgs = MobilityResources & ViewerParams;

const byId = (column: string, kind: 'uuid' | 'text' = 'uuid') => ({ column, field: 'id', kind }) as const;

/** A transaction or an anomaly by id when the viewer sees it (whereVisible, per row), with the selected columns. */
const visibleRow = (spec: TableSpec) =>
  keyLookup<ViewerParams>(byId(`${spec.alias}.id`), ['viewer'], (knex, p, projection) =>
    whereVisible(knex, from(knex, spec).select(selectColumns(spec, projection)), spec.alias, p.viewer, 'row'),
  );

/**
 * The lookups by id, compiled once per process with the viewer bound as a value (keyLookup): one
 * statement text whatever the batch size, ids that cannot be uuids never sent, and the selected
 * columns only when a resolver names a projection (`.fields(...)`).
 */
const lookups = {
  transaction: visibleRow(TRANSACTION_SPEC),
  anomaly: visibleRow(ANOMALY_SPEC),
};

/** Anomalies and active anomalies per transaction: one statement text for any batch (any()). */
const ANOMALY_COUNTS = `select transaction_id as id, count(*)::int as total,
  (count(*) filter (where active))::int as active
  from mobility.anomalies where transaction_id = any(${arrayParameter('uuid')}) group by transaction_id`;

type Counts = { total: number; active: number };

function anomalyCounts({ knex }: ReaderArgs) {
  return new DataLoader<string, Counts, string>(async (keys) => {
    const ids = uuidsOnly(keys.map((k) => k.toLowerCase()));
    const rows: Array<Counts & { id: string }> =
      ids.length === 0 ? [] : (await knex.raw(ANOMALY_COUNTS, [ids])).rows;
    const found = new Map(rows.map((r) => [String(r.id), r]));
    return keys.map((k) => found.get(k.toLowerCase()) ?? { total: 0, active: 0 });
  });
}

/**
 * The request's reader, its loaders each made on first use (lazyFields): a request allocates one object,
 * and a loader only when one of its fields is resolved.
 */
const mobilityReader = lazyFields<ReaderArgs>()({
  /** How the root list of anomalies reads visibility for this viewer (ListScopeCache). */
  listScope: ({ knex, viewer, listScopes }: ReaderArgs) => listScopes.scopeOf(knex, viewer),
  transactions: lookups.transaction.maker<TransactionRow>(),
  anomalies: lookups.anomaly.maker<AnomalyRow>(),
  anomalyCounts,
  /** Whether the viewer sees fleet-core's devices, vehicles, drivers, groups and accounts. */
  fleet: ({ knex, viewer }: ReaderArgs) => fleetVisibility(knex, viewer),
  relations: ({ knex, codec, viewer }: ReaderArgs) =>
    relationLoaders<RelationName>(knex, codec, viewer, relations as Record<RelationName, RelationSpec>),
  statistics: ({ knex, now }: ReaderArgs) => statisticsLoader(knex, now),
});

export const createReader = (resources: MobilityResources, user: UserContext) =>
  mobilityReader({ ...resources, viewer: user.uid });

export type MobilityReader = ReturnType<typeof createReader>;
