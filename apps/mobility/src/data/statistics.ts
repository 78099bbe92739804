/**
 * Device and Group statistics, batched: every parent asking with the same arguments is answered
 * by one statement (parents unnested, trips and transactions joined per parent).
 *
 * Transactions of a device: its own, read. Of a group: those whose group is the group or a
 * descendant, read from the kept per-group sums (mobility.group_transaction_statistics, migration
 * 004, exact in the writing transaction) of its descendant groups for the whole months and days
 * of the range, and from the transactions for the partial days at its edges (rangePieces).
 * Distance: fleet trips started in the period by the device (read), or by the vehicles placed in
 * the group or its descendants (each vehicle once), read from fleet-core's kept distance by start
 * (vehicle_started_distance_v1) for the whole months and days and from the trips for the partial
 * days (keptGroupDistance). Periods are UTC calendar periods by transaction time (trip start time
 * for distance).
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

/** A device's transactions (a device has few: they are read, not kept). */
const scopeTransactions = (_kind: Kind) =>
  'select t.* from mobility.transactions t where t.device_id = p.parent_id';

/** A device's trips (a group's distance is read from kept rows: keptGroupDistance). */
const DEVICE_TRIPS =
  'select tr.started_at, tr.distance_m from fleet_contract.trips_v1 tr where tr.device_id = p.parent_id';

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

/** A part of a statistics range: kept rows (`D` days, `M` months) or transactions, added or subtracted. */
export interface Piece {
  source: 'D' | 'M' | 'T';
  from: Date;
  to: Date;
  /** Weight of the part: 1 adds it, -1 subtracts it. */
  sign: number;
}

const dayFloor = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const dayCeil = (d: Date) => {
  const f = dayFloor(d);
  return f.getTime() === d.getTime() ? f : new Date(f.getTime() + DAY);
};
const monthFloor = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
const days = (a: Date, b: Date) => Math.round((b.getTime() - a.getTime()) / DAY);

/**
 * How a group's range is read from the kept rows (migration 004): whole months from month rows
 * (MONTH and TOTAL periods), whole days from day rows, the partial days at the edges from the
 * transactions. A part covering most of a month (a day) is its month (day) minus the rest, so a
 * range ending now reads the current month's row minus the days still to come (usually none
 * kept) and today's row minus the transactions after now, not every day of the month and every
 * transaction of today. Every part stays inside one period of the request: each row or
 * transaction read is bucketed where the transactions it counts are.
 */
export function rangePieces(range: { from: Date; to: Date; period: Period }): Piece[] {
  return merged(rawPieces(range));
}

/**
 * The same parts with the kept rows' weights summed per day and month (a day added and removed
 * is not read) and consecutive days (months) of the same weight read as one range: each range is
 * one index range per descendant group, so the default year ending now reads 3 ranges, not 15.
 */
function merged(pieces: Piece[]): Piece[] {
  const out: Piece[] = pieces.filter((p) => p.source === 'T');
  for (const source of ['M', 'D'] as const) {
    const step = source === 'D' ? (d: Date) => new Date(d.getTime() + DAY) : nextMonth;
    const weights = new Map<number, number>();
    for (const p of pieces)
      if (p.source === source)
        for (let d = p.from; d < p.to; d = step(d))
          weights.set(d.getTime(), (weights.get(d.getTime()) ?? 0) + p.sign);
    let run: Piece | null = null;
    for (const [at, weight] of [...weights].sort(([a], [b]) => a - b)) {
      const day = new Date(at);
      if (run && run.to.getTime() === at && run.sign === weight) run.to = step(day);
      else if (weight !== 0) out.push((run = { source, from: day, to: step(day), sign: weight as 1 | -1 }));
      else run = null;
    }
  }
  return out;
}

function rawPieces(range: { from: Date; to: Date; period: Period }): Piece[] {
  const { from, to } = range;
  const d0 = dayCeil(from);
  const d1 = dayFloor(to);
  if (d0 > d1) return [{ source: 'T', from, to, sign: 1 }];
  const pieces: Piece[] = [];
  // The partial days: the transactions of the shorter side.
  if (from < d0) {
    const start = dayFloor(from);
    if (d0.getTime() - from.getTime() <= from.getTime() - start.getTime())
      pieces.push({ source: 'T', from, to: d0, sign: 1 });
    else
      pieces.push(
        { source: 'D', from: start, to: d0, sign: 1 },
        { source: 'T', from: start, to: from, sign: -1 },
      );
  }
  if (d1 < to) {
    const end = new Date(d1.getTime() + DAY);
    if (to.getTime() - d1.getTime() <= end.getTime() - to.getTime())
      pieces.push({ source: 'T', from: d1, to, sign: 1 });
    else
      pieces.push({ source: 'D', from: d1, to: end, sign: 1 }, { source: 'T', from: to, to: end, sign: -1 });
  }
  if (d0 >= d1) return pieces;
  if (range.period === 'DAY' || range.period === 'WEEK') {
    pieces.push({ source: 'D', from: d0, to: d1, sign: 1 });
    return pieces;
  }
  // Whole days in month steps: a whole month is its row; a part of one, its days or the month
  // minus the other days, whichever reads fewer rows.
  for (let m = monthFloor(d0); m < d1; m = nextMonth(m)) {
    const end = nextMonth(m);
    const a = m < d0 ? d0 : m;
    const b = end > d1 ? d1 : end;
    if (a.getTime() === m.getTime() && b.getTime() === end.getTime()) {
      pieces.push({ source: 'M', from: m, to: end, sign: 1 });
    } else if (days(a, b) <= days(m, end) - days(a, b) + 1) {
      pieces.push({ source: 'D', from: a, to: b, sign: 1 });
    } else {
      pieces.push({ source: 'M', from: m, to: end, sign: 1 });
      if (m < a) pieces.push({ source: 'D', from: m, to: a, sign: -1 });
      if (b < end) pieces.push({ source: 'D', from: b, to: end, sign: -1 });
    }
  }
  return pieces;
}

/** A range's pieces read from kept rows, as a relation `k(level, lo, hi, sign)` (keptPieceBindings). */
const KEPT_PIECES = `unnest(${arrayParameter('text')}, ${arrayParameter('timestamptz')}, ${arrayParameter('timestamptz')},
                    ${arrayParameter('int')}) as k(level, lo, hi, sign)`;
const keptPieceBindings = (pieces: Piece[]) => [
  pieces.map((p) => p.source),
  pieces.map((p) => p.from),
  pieces.map((p) => p.to),
  pieces.map((p) => p.sign),
];
/** A range's pieces read from the rows themselves, as a relation `k(lo, hi, sign)` (rawPieceBindings). */
const RAW_PIECES = `unnest(${arrayParameter('timestamptz')}, ${arrayParameter('timestamptz')}, ${arrayParameter('int')})
                    as k(lo, hi, sign)`;
const rawPieceBindings = (pieces: Piece[]) => [
  pieces.map((p) => p.from),
  pieces.map((p) => p.to),
  pieces.map((p) => p.sign),
];

/** The kept rows and transactions of a group's range (one row per parent, bucket and category). */
function keptGroupRows(
  range: { from: Date; to: Date; period: Period },
  dim: string,
): { sql: string; bindings: unknown[] } {
  const pieces = rangePieces(range);
  const kept = pieces.filter((p) => p.source !== 'T');
  const raw = pieces.filter((p) => p.source === 'T');
  const total = range.period === 'TOTAL';
  const parts: string[] = [];
  const bindings: unknown[] = [];
  const sums = (sign: string, s: string) =>
    `${sign} * ${s}.transactions as n, ${sign} * ${s}.quantity as quantity, ${sign} * ${s}.net_total as net_total,
     ${sign} * ${s}.gross_total as gross_total, ${sign} * ${s}.net_quantity as net_quantity,
     ${sign} * ${s}.gross_quantity as gross_quantity, ${sign} * ${s}.net_transactions as net_n,
     ${sign} * ${s}.gross_transactions as gross_n, ${sign} * ${s}.anomalies as anomalies`;
  if (kept.length > 0) {
    // Per descendant group and part, one range of group_transaction_statistics_key: the part's
    // bounds are index conditions, not a filter on every row of the group. `offset 0` keeps the
    // lateral subquery a subquery (pulled up, the planner joined the parts to all the rows).
    parts.push(`
      select ga.ancestor_id as parent_id, ${bucket(range.period, 's.period_start')} as period_start,
             s.${dim} as dim, s.quantity_unit, s.currency, ${sums('k.sign', 's')}
        from p join fleet_contract.group_ancestors_v1 ga on ga.ancestor_id = p.parent_id
       cross join ${KEPT_PIECES}
       cross join lateral (
             select * from mobility.group_transaction_statistics s
              where s.group_id = ga.descendant_id and s.level = cast(k.level as char(1)) and s.period_start >= k.lo
                and s.period_start < k.hi offset 0) s`);
    if (total) bindings.push(range.from);
    bindings.push(...keptPieceBindings(kept));
  }
  if (raw.length > 0) {
    // Per descendant group and partial day, one range of transactions_group_idx (lateral, as above).
    parts.push(`
      select ga.ancestor_id as parent_id, ${bucket(range.period, 't.transacted_at')} as period_start,
             t.${dim} as dim, t.quantity_unit, t.currency, k.sign as n, k.sign * t.quantity::numeric as quantity,
             k.sign * coalesce(t.net_total::numeric, 0) as net_total,
             k.sign * coalesce(t.gross_total::numeric, 0) as gross_total,
             case when t.net_total is not null then k.sign * t.quantity::numeric else 0 end as net_quantity,
             case when t.gross_total is not null then k.sign * t.quantity::numeric else 0 end as gross_quantity,
             case when t.net_total is not null then k.sign else 0 end as net_n,
             case when t.gross_total is not null then k.sign else 0 end as gross_n,
             k.sign * t.anomaly_count as anomalies
        from p join fleet_contract.group_ancestors_v1 ga on ga.ancestor_id = p.parent_id
       cross join ${RAW_PIECES}
       cross join lateral (
             select * from mobility.transactions t
              where t.group_id = ga.descendant_id and t.transacted_at >= k.lo and t.transacted_at < k.hi offset 0) t`);
    if (total) bindings.push(range.from);
    bindings.push(...rawPieceBindings(raw));
  }
  const sql = `
      select parent_id, period_start, dim, quantity_unit, currency,
             sum(n)::int as n, sum(quantity)::float8 as quantity,
             sum(net_total)::float8 as net_total, sum(gross_total)::float8 as gross_total,
             case when sum(net_n) > 0 then sum(net_quantity)::float8 end as net_quantity,
             case when sum(gross_n) > 0 then sum(gross_quantity)::float8 end as gross_quantity,
             sum(anomalies)::int as anomalies
        from (${parts.join(' union all ')}) c
       group by 1, 2, 3, 4, 5
      having sum(n) > 0`;
  return { sql, bindings };
}

/**
 * A group's distance per period: the vehicles placed in the group or its descendants (each once),
 * their kept distance by start (fleet_contract.vehicle_started_distance_v1) for the whole months
 * and days of the range, their trips only for the partial days at its edges (rangePieces).
 */
function keptGroupDistance(range: { from: Date; to: Date; period: Period }): {
  sql: string;
  bindings: unknown[];
} {
  const pieces = rangePieces(range);
  const kept = pieces.filter((p) => p.source !== 'T');
  const raw = pieces.filter((p) => p.source === 'T');
  const total = range.period === 'TOTAL';
  const parts: string[] = [];
  const bindings: unknown[] = [];
  // `offset 0` keeps each lateral subquery a subquery: one index range per vehicle and piece.
  if (kept.length > 0) {
    parts.push(`
      select pv.parent_id, ${bucket(range.period, 'd.period_start')} as period_start, k.sign * d.distance_m as m
        from pv cross join ${KEPT_PIECES}
       cross join lateral (
             select d.period_start, d.distance_m from fleet_contract.vehicle_started_distance_v1 d
              where d.vehicle_id = pv.vehicle_id and d.level = cast(k.level as char(1))
                and d.period_start >= k.lo and d.period_start < k.hi offset 0) d`);
    if (total) bindings.push(range.from);
    bindings.push(...keptPieceBindings(kept));
  }
  if (raw.length > 0) {
    parts.push(`
      select pv.parent_id, ${bucket(range.period, 'tr.started_at')} as period_start, k.sign * tr.distance_m as m
        from pv cross join ${RAW_PIECES}
       cross join lateral (
             select tr.started_at, tr.distance_m from fleet_contract.trips_v1 tr
              where tr.vehicle_id = pv.vehicle_id and tr.started_at >= k.lo and tr.started_at < k.hi offset 0) tr`);
    if (total) bindings.push(range.from);
    bindings.push(...rawPieceBindings(raw));
  }
  const sql = `
      with pv as (select distinct ga.ancestor_id as parent_id, gv.vehicle_id
                    from p join fleet_contract.group_ancestors_v1 ga on ga.ancestor_id = p.parent_id
                    join fleet_contract.group_vehicles_v1 gv on gv.group_id = ga.descendant_id)
      select parent_id, period_start, sum(m)::float8 / 1000 as km from (${parts.join(' union all ')}) c
       group by 1, 2`;
  return { sql, bindings };
}

async function transactionStatistics(
  knex: Knex,
  kind: Kind,
  parentIds: string[],
  range: { from: Date; to: Date; period: Period },
  groupBy: 'PRODUCT_CATEGORY' | 'ENERGY_TYPE',
  withDistance = true,
): Promise<Map<string, TransactionStatisticRow[]>> {
  const dim = groupBy === 'PRODUCT_CATEGORY' ? 'product_category' : 'energy_type';
  const txBucket = bucket(range.period, 'x.transacted_at');
  const tripBucket = bucket(range.period, 'y.started_at');
  const total = range.period === 'TOTAL';
  const bindings: unknown[] = [parentIds];
  let txSql: string;
  if (kind === 'group') {
    const kept = keptGroupRows(range, dim);
    txSql = kept.sql;
    bindings.push(...kept.bindings);
  } else {
    txSql = `
      select p.parent_id, ${txBucket} as period_start, x.${dim} as dim, x.quantity_unit, x.currency,
             count(*)::int as n, sum(x.quantity)::float8 as quantity,
             coalesce(sum(x.net_total), 0)::float8 as net_total, coalesce(sum(x.gross_total), 0)::float8 as gross_total,
             sum(x.quantity) filter (where x.net_total is not null)::float8 as net_quantity,
             sum(x.quantity) filter (where x.gross_total is not null)::float8 as gross_quantity,
             sum(x.anomaly_count)::int as anomalies
        from p cross join lateral (${scopeTransactions(kind)}
          and t.transacted_at >= ? and t.transacted_at < ?) x
       group by 1, 2, 3, 4, 5`;
    if (total) bindings.push(range.from);
    bindings.push(range.from, range.to);
  }
  let distSql = 'select p.parent_id, null::timestamptz as period_start, 0::float8 as km from p where false';
  const distBindings: unknown[] = [];
  if (withDistance && kind === 'group') {
    const kept = keptGroupDistance(range);
    distSql = kept.sql;
    distBindings.push(...kept.bindings);
  } else if (withDistance) {
    distSql = `select p.parent_id, ${tripBucket} as period_start, sum(y.distance_m)::float8 / 1000 as km
             from p cross join lateral (${DEVICE_TRIPS} and tr.started_at >= ? and tr.started_at < ?) y
            group by 1, 2`;
    if (total) distBindings.push(range.from);
    distBindings.push(range.from, range.to);
  }
  const sql = `
    with p as (select distinct unnest(${arrayParameter(kind === 'device' ? 'text' : 'uuid')}) as parent_id),
    tx as (${txSql}),
    dist as (${distSql})
    select tx.*, coalesce(dist.km, 0)::float8 as km
      from tx left join dist on dist.parent_id = tx.parent_id and dist.period_start = tx.period_start
     order by tx.parent_id, tx.period_start, tx.dim, tx.quantity_unit, tx.currency`;
  bindings.push(...distBindings);
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
  /** Whether rows need the distance driven (read from fleet trips); 0 in every row when not. */
  distance?: boolean;
}

/** One loader per request: keys with the same kind, statistic and arguments share a statement. */
export function statisticsLoader(knex: Knex, now: () => Date) {
  return new DataLoader<StatKey, unknown[], string>(
    async (keys) => {
      const batches = new Map<string, StatKey[]>();
      for (const k of keys) {
        const id = JSON.stringify([k.kind, k.what, k.args, k.distance !== false]);
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
                  first.distance !== false,
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

const cacheKey = (k: StatKey) => JSON.stringify([k.kind, k.what, k.parentId, k.args, k.distance !== false]);
