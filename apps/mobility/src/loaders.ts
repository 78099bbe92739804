/**
 * Per-request loaders: transaction lookups, anomaly counts, entity visibility checks
 * (`__resolveReference`), nested pages (LATERAL-batched) and statistics, for one viewer.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import type { UserContext } from '@fleetgraph/auth';
import {
  isUuid,
  relationLoaders,
  selectColumns,
  type CursorCodec,
  type RelationSpec,
} from '@fleetgraph/paging';
import { visibleDevices, visibleDrivers, visibleGroups } from '@fleetgraph/visibility';
import { statisticsLoader } from './data/statistics';
import { ANOMALY_SPEC, PAGE_RULES, TRANSACTION_SPEC, type TransactionRow } from './data/tables';
import { whereVisible } from './data/visibility';

export interface MobilityServices {
  knex: Knex;
  codec: CursorCodec;
  now: () => Date;
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
    rules: PAGE_RULES.transactions,
    children: (knex) => knex(`${TRANSACTION_SPEC.table} as t`).whereRaw('t.device_id = p.parent_id'),
    filter: txWindow,
  },
  groupTransactions: {
    name: 'Group.mobilityTransactions',
    parentType: 'uuid',
    child: TRANSACTION_SPEC,
    rules: PAGE_RULES.transactions,
    children: (knex) => knex(`${TRANSACTION_SPEC.table} as t`).whereRaw(GROUP_SCOPE('t.group_id')),
    filter: txWindow,
  },
  driverTransactions: {
    name: 'Driver.mobilityTransactions',
    parentType: 'uuid',
    child: TRANSACTION_SPEC,
    rules: PAGE_RULES.transactions,
    children: (knex) => knex(`${TRANSACTION_SPEC.table} as t`).whereRaw('t.driver_id = p.parent_id'),
    filter: txWindow,
  },
  deviceAnomalies: {
    name: 'Device.mobilityTransactionAnomalies',
    parentType: 'text',
    child: ANOMALY_SPEC,
    rules: PAGE_RULES.anomalies,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw('a.device_id = p.parent_id'),
    filter: anomalyWindow,
  },
  groupAnomalies: {
    name: 'Group.mobilityTransactionAnomalies',
    parentType: 'uuid',
    child: ANOMALY_SPEC,
    rules: PAGE_RULES.anomalies,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw(GROUP_SCOPE('a.group_id')),
    filter: anomalyWindow,
  },
  driverAnomalies: {
    name: 'Driver.mobilityTransactionAnomalies',
    parentType: 'uuid',
    child: ANOMALY_SPEC,
    rules: PAGE_RULES.anomalies,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw('a.driver_id = p.parent_id'),
    filter: anomalyWindow,
  },
  transactionAnomalies: {
    name: 'MobilityTransaction.mobilityTransactionAnomalies',
    parentType: 'uuid',
    child: ANOMALY_SPEC,
    rules: PAGE_RULES.transactionAnomalies,
    children: (knex) => knex(`${ANOMALY_SPEC.table} as a`).whereRaw('a.transaction_id = p.parent_id'),
    filter: anomalyWindow,
  },
} satisfies Record<string, RelationSpec>;

type RelationName = keyof typeof relations;

/** A loader answering "which of these ids does the viewer see" in one statement. */
function visibleIds(query: (ids: string[]) => Knex.QueryBuilder, uuid: boolean) {
  return new DataLoader<string, boolean, string>(async (keys) => {
    const usable = uuid ? keys.filter(isUuid).map((k) => k.toLowerCase()) : [...keys];
    const seen = new Set<string>();
    if (usable.length > 0) for (const r of await query(usable)) seen.add(String(r.id));
    return keys.map((k) => seen.has(uuid ? k.toLowerCase() : k));
  });
}

export function createLoaders(services: MobilityServices, user: UserContext) {
  const { knex, codec } = services;
  const viewer = user.uid;
  const transactions = new DataLoader<string, TransactionRow | null, string>(async (keys) => {
    const ids = keys.filter(isUuid).map((k) => k.toLowerCase());
    const found = new Map<string, TransactionRow>();
    if (ids.length > 0) {
      const query = knex(`${TRANSACTION_SPEC.table} as t`)
        .select(selectColumns(TRANSACTION_SPEC))
        .whereIn('t.id', ids);
      for (const row of (await whereVisible(knex, query, 't', viewer)) as TransactionRow[])
        found.set(row.id, row);
    }
    return keys.map((k) => found.get(k.toLowerCase()) ?? null);
  });
  const anomalyCounts = new DataLoader<string, { total: number; active: number }, string>(async (keys) => {
    const rows = (await knex('mobility.anomalies')
      .select('transaction_id')
      .count('* as total')
      .select(knex.raw('count(*) filter (where active) as active'))
      .whereIn('transaction_id', keys as string[])
      .groupBy('transaction_id')) as Array<{ transaction_id: string; total: string; active: string }>;
    const found = new Map(
      rows.map((r) => [r.transaction_id, { total: Number(r.total), active: Number(r.active) }]),
    );
    return keys.map((k) => found.get(k) ?? { total: 0, active: 0 });
  });
  const anomalies = new DataLoader<string, Record<string, unknown> | null, string>(async (keys) => {
    const ids = keys.filter(isUuid).map((k) => k.toLowerCase());
    const found = new Map<string, Record<string, unknown>>();
    if (ids.length > 0) {
      const query = knex(`${ANOMALY_SPEC.table} as a`)
        .select(selectColumns(ANOMALY_SPEC))
        .whereIn('a.id', ids);
      for (const row of (await whereVisible(knex, query, 'a', viewer)) as Array<Record<string, unknown>>)
        found.set(String(row.id), row);
    }
    return keys.map((k) => found.get(k.toLowerCase()) ?? null);
  });
  return {
    knex,
    anomalies,
    codec,
    viewer,
    now: services.now,
    transactions,
    anomalyCounts,
    visibleDevice: visibleIds((ids) => visibleDevices(knex, viewer).whereIn('v.device_id', ids), false),
    visibleGroup: visibleIds((ids) => visibleGroups(knex, viewer).whereIn('v.group_id', ids), true),
    visibleDriver: visibleIds((ids) => visibleDrivers(knex, viewer).whereIn('v.driver_id', ids), true),
    relations: relationLoaders<RelationName>(
      knex,
      codec,
      viewer,
      relations as Record<RelationName, RelationSpec>,
    ),
    statistics: statisticsLoader(knex, services.now),
  };
}

export type MobilityLoaders = ReturnType<typeof createLoaders>;
