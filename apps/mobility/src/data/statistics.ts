/**
 * Device and Group statistics, batched: every parent asking with the same arguments is answered
 * by one statement (parents unnested, trips and transactions joined per parent).
 *
 * Transactions of a device: its own; of a group: those whose group is the group or a descendant.
 * Distance: fleet trips started in the period by the device, or by the vehicles placed in the
 * group or its descendants (each vehicle once). Periods are UTC calendar periods by transaction
 * time (trip start time for distance).
 */
import { arrayParameter } from '@fleetgraph/db';
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import { badInput } from '@fleetgraph/paging';

export type Period = 'DAY' | 'WEEK' | 'MONTH' | 'TOTAL';
export interface StatisticsArgs {
  from?: Date | null;
  to?: Date | null;
  period?: Period | null;
  groupBy?: 'PRODUCT_CATEGORY' | 'ENERGY_TYPE' | null;
}

const MAX_PERIODS = 400;
const DAY = 86_400_000;

export function resolveRange(args: StatisticsArgs, now: Date) {
  const to = args.to ?? now;
  const from = args.from ?? new Date(Date.UTC(to.getUTCFullYear() - 1, to.getUTCMonth(), to.getUTCDate()));
  if (from >= to) throw badInput('from must be before to.', { argument: 'from' });
  const period = args.period ?? 'MONTH';
  const days = (to.getTime() - from.getTime()) / DAY;
  const periods = period === 'DAY' ? days : period === 'WEEK' ? days / 7 : period === 'MONTH' ? days / 28 : 1;
  if (periods > MAX_PERIODS)
    throw badInput(`at most ${MAX_PERIODS} periods per request: shorten the range or use a longer period.`, {
      argument: 'period',
    });
  return { from, to, period };
}

/** SQL of the start of the period holding `column` (binding 1: the range start for TOTAL). */
function bucket(period: Period, column: string): string {
  if (period === 'TOTAL') return `?::timestamptz`;
  const unit = period.toLowerCase();
  return `(date_trunc('${unit}', ${column} at time zone 'UTC') at time zone 'UTC')`;
}

type Kind = 'device' | 'group';

const scopeTransactions = (kind: Kind) =>
  kind === 'device'
    ? 'select t.* from mobility.transactions t where t.device_id = p.parent_id'
    : `select t.* from mobility.transactions t where t.group_id in
         (select ga.descendant_id from fleet_contract.group_ancestors_v1 ga where ga.ancestor_id = p.parent_id)`;

const scopeTrips = (kind: Kind) =>
  kind === 'device'
    ? 'select tr.started_at, tr.distance_m from fleet_contract.trips_v1 tr where tr.device_id = p.parent_id'
    : `select tr.started_at, tr.distance_m from fleet_contract.trips_v1 tr where tr.vehicle_id in
         (select gv.vehicle_id from fleet_contract.group_vehicles_v1 gv
           join fleet_contract.group_ancestors_v1 ga on ga.descendant_id = gv.group_id
          where ga.ancestor_id = p.parent_id)`;

export interface TransactionStatisticRow {
  periodStart: Date;
  periodEnd: Date;
  productCategory: string | null;
  energyType: string | null;
  quantityUnit: string;
  currency: string | null;
  transactionCount: number;
  quantity: number;
  netTotal: number;
  grossTotal: number;
  averageNetUnitPrice: number | null;
  averageGrossUnitPrice: number | null;
  distanceKm: number;
  consumptionPer100Km: number | null;
  anomaliesCount: number;
}

async function transactionStatistics(
  knex: Knex,
  kind: Kind,
  parentIds: string[],
  range: { from: Date; to: Date; period: Period },
  groupBy: 'PRODUCT_CATEGORY' | 'ENERGY_TYPE',
): Promise<Map<string, TransactionStatisticRow[]>> {
  const dim = groupBy === 'PRODUCT_CATEGORY' ? 'product_category' : 'energy_type';
  const txBucket = bucket(range.period, 'x.transacted_at');
  const tripBucket = bucket(range.period, 'y.started_at');
  const total = range.period === 'TOTAL';
  const sql = `
    with p as (select distinct unnest(${arrayParameter(kind === 'device' ? 'text' : 'uuid')}) as parent_id),
    tx as (
      select p.parent_id, ${txBucket} as period_start, x.${dim} as dim, x.quantity_unit, x.currency,
             count(*)::int as n, sum(x.quantity)::float8 as quantity,
             coalesce(sum(x.net_total), 0)::float8 as net_total, coalesce(sum(x.gross_total), 0)::float8 as gross_total,
             sum(x.quantity) filter (where x.net_total is not null)::float8 as net_quantity,
             sum(x.quantity) filter (where x.gross_total is not null)::float8 as gross_quantity,
             sum((select count(*) from mobility.anomalies a where a.transaction_id = x.id))::int as anomalies
        from p cross join lateral (${scopeTransactions(kind)}
          and t.transacted_at >= ? and t.transacted_at < ?) x
       group by 1, 2, 3, 4, 5
    ),
    dist as (
      select p.parent_id, ${tripBucket} as period_start, sum(y.distance_m)::float8 / 1000 as km
        from p cross join lateral (${scopeTrips(kind)} and tr.started_at >= ? and tr.started_at < ?) y
       group by 1, 2
    )
    select tx.*, coalesce(dist.km, 0)::float8 as km
      from tx left join dist on dist.parent_id = tx.parent_id and dist.period_start = tx.period_start
     order by tx.parent_id, tx.period_start, tx.dim, tx.quantity_unit, tx.currency`;
  const bindings: unknown[] = [parentIds];
  if (total) bindings.push(range.from);
  bindings.push(range.from, range.to);
  if (total) bindings.push(range.from);
  bindings.push(range.from, range.to);
  const result = (await knex.raw(sql, bindings as Knex.RawBinding[])).rows as Array<Record<string, any>>;
  const out = new Map<string, TransactionStatisticRow[]>();
  for (const r of result) {
    const start = new Date(r.period_start);
    const row: TransactionStatisticRow = {
      periodStart: start,
      periodEnd: periodEnd(start, range),
      productCategory: groupBy === 'PRODUCT_CATEGORY' ? r.dim : null,
      energyType: groupBy === 'ENERGY_TYPE' ? r.dim : null,
      quantityUnit: r.quantity_unit,
      currency: r.currency,
      transactionCount: r.n,
      quantity: r.quantity,
      netTotal: r.net_total,
      grossTotal: r.gross_total,
      averageNetUnitPrice: r.net_quantity ? r.net_total / r.net_quantity : null,
      averageGrossUnitPrice: r.gross_quantity ? r.gross_total / r.gross_quantity : null,
      distanceKm: r.km,
      consumptionPer100Km: r.km > 0 ? (r.quantity / r.km) * 100 : null,
      anomaliesCount: r.anomalies,
    };
    const list = out.get(String(r.parent_id)) ?? [];
    list.push(row);
    out.set(String(r.parent_id), list);
  }
  return out;
}

function periodEnd(start: Date, range: { to: Date; period: Period }): Date {
  switch (range.period) {
    case 'DAY':
      return new Date(start.getTime() + DAY);
    case 'WEEK':
      return new Date(start.getTime() + 7 * DAY);
    case 'MONTH':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    default:
      return range.to;
  }
}

export interface AnomalyStatisticRow {
  periodStart: Date;
  periodEnd: Date;
  code: string;
  severity: string;
  count: number;
  activeCount: number;
  clearedCount: number;
  transactionCount: number;
}

async function anomalyStatistics(
  knex: Knex,
  kind: Kind,
  parentIds: string[],
  range: { from: Date; to: Date; period: Period },
): Promise<Map<string, AnomalyStatisticRow[]>> {
  const scope =
    kind === 'device'
      ? 'select a.* from mobility.anomalies a where a.device_id = p.parent_id'
      : `select a.* from mobility.anomalies a where a.group_id in
           (select ga.descendant_id from fleet_contract.group_ancestors_v1 ga where ga.ancestor_id = p.parent_id)`;
  const sql = `
    with p as (select distinct unnest(${arrayParameter(kind === 'device' ? 'text' : 'uuid')}) as parent_id)
    select p.parent_id, ${bucket(range.period, 'x.transacted_at')} as period_start, x.code, x.severity,
           count(*)::int as n, count(*) filter (where x.active)::int as active,
           count(*) filter (where not x.active)::int as cleared, count(distinct x.transaction_id)::int as transactions
      from p cross join lateral (${scope} and a.transacted_at >= ? and a.transacted_at < ?) x
     group by 1, 2, 3, 4
     order by 1, 2, 3, 4`;
  const bindings: unknown[] = [parentIds];
  if (range.period === 'TOTAL') bindings.push(range.from);
  bindings.push(range.from, range.to);
  const out = new Map<string, AnomalyStatisticRow[]>();
  for (const r of (await knex.raw(sql, bindings as Knex.RawBinding[])).rows as Array<Record<string, any>>) {
    const start = new Date(r.period_start);
    const list = out.get(String(r.parent_id)) ?? [];
    list.push({
      periodStart: start,
      periodEnd: periodEnd(start, range),
      code: r.code,
      severity: r.severity,
      count: r.n,
      activeCount: r.active,
      clearedCount: r.cleared,
      transactionCount: r.transactions,
    });
    out.set(String(r.parent_id), list);
  }
  return out;
}

interface StatKey {
  kind: Kind;
  what: 'transactions' | 'anomalies';
  parentId: string;
  args: StatisticsArgs;
}

/** One loader per request: keys with the same kind, statistic and arguments share a statement. */
export function statisticsLoader(knex: Knex, now: () => Date) {
  return new DataLoader<StatKey, unknown[], string>(
    async (keys) => {
      const batches = new Map<string, StatKey[]>();
      for (const k of keys) {
        const id = JSON.stringify([k.kind, k.what, k.args]);
        batches.set(id, [...(batches.get(id) ?? []), k]);
      }
      const results = new Map<string, unknown[] | Error>();
      for (const batch of batches.values()) {
        const first = batch[0]!;
        try {
          const range = resolveRange(first.args, now());
          const ids = batch.map((k) => k.parentId);
          const found =
            first.what === 'transactions'
              ? await transactionStatistics(
                  knex,
                  first.kind,
                  ids,
                  range,
                  first.args.groupBy ?? 'PRODUCT_CATEGORY',
                )
              : await anomalyStatistics(knex, first.kind, ids, range);
          for (const k of batch) results.set(cacheKey(k), found.get(k.parentId) ?? []);
        } catch (error) {
          for (const k of batch) results.set(cacheKey(k), error as Error);
        }
      }
      return keys.map((k) => results.get(cacheKey(k))!);
    },
    { cacheKeyFn: cacheKey },
  );
}

const cacheKey = (k: StatKey) => JSON.stringify([k.kind, k.what, k.parentId, k.args]);
