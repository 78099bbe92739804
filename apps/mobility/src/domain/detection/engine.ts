/**
 * The detection engine: gathers, in a few set-based statements per chunk of transactions, the
 * facts the rules need (vehicle facts and positions through fleet_contract, previous fills, the
 * distance driven from fleet trips, price medians), runs the rules (rules.ts) and records the
 * verdicts while keeping every anomaly's lifecycle:
 *
 *   - a finding with no active anomaly of that code on the transaction -> a new anomaly
 *     (status DETECTED, detectedBy SYSTEM, detectedById RULES_VERSION) and a DETECTED event;
 *     an active one is left as it is (never rewritten);
 *   - on re-evaluation, a pass where an anomaly of that code is active and still DETECTED (not
 *     confirmed by a user) -> cleared: status RESOLVED, clearedBy SYSTEM, event RESOLVED;
 *   - inconclusive -> a pending check, re-evaluated by `reevaluate` when late data arrives.
 *
 * `detectTransactions` runs on import; `reevaluate` runs when positions arrive late (positions
 * importer, tests) over the pending checks and active position findings of the vehicles concerned.
 */
import type { Knex } from 'knex';
import { evaluateAll, priceArea, RULES, THRESHOLDS } from './rules';
import type {
  Finding,
  PositionFact,
  PreviousFill,
  Rule,
  RuleContext,
  TransactionFacts,
  Verdict,
  VehicleFacts,
} from './types';

export const RULES_VERSION = 'rules-v1';
const CHUNK = 2000;
const SEVERITY_RANK: Record<string, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };

export interface DetectionOptions {
  now: Date;
  /** re-evaluation: passes clear DETECTED anomalies of the same code */
  reevaluation?: boolean;
  /** only these rule codes (default: all) */
  codes?: string[];
}

export interface DetectionSummary {
  transactions: number;
  detected: number;
  resolved: number;
  pending: number;
}

interface TxRow extends TransactionFacts {
  deviceId: string | null;
  driverId: string | null;
  groupId: string | null;
  externalSource: string | null;
  externalId: string | null;
  stationCity: string | null;
}

const rows = async <T>(knex: Knex, sql: string, bindings: unknown[]): Promise<T[]> =>
  (await knex.raw(sql, bindings as Knex.RawBinding[])).rows as T[];

/**
 * The last 3 previous fills of each transaction's vehicle in the same energy class (liquid /
 * electric). Its conditions are exactly transactions_previous_fill_idx (migration 002), so the
 * plan reads 3 index entries per transaction whatever the statistics (plan test: detection-plan.test.ts).
 */
export const PREVIOUS_FILLS = `select t.id as "txId", p.id, p.transacted_at as "transactedAt", p.odometer_km as "odometerKm", p.quantity, p.rank
       from mobility.transactions t
       cross join lateral (
         select q.id, q.transacted_at, q.odometer_km, q.quantity,
                row_number() over (order by q.transacted_at desc, q.id desc) as rank
           from mobility.transactions q
          where q.vehicle_id = t.vehicle_id
            and (q.transacted_at, q.id) < (t.transacted_at, t.id)
            and q.transaction_type in ('REFILL', 'CHARGE')
            and (q.energy_type = 'ELECTRIC') = (t.energy_type = 'ELECTRIC')
            and q.energy_type <> 'NONE'
          order by q.transacted_at desc, q.id desc
          limit 3
       ) p
      where t.id = any(?::uuid[]) and t.transaction_type in ('REFILL', 'CHARGE')`;

/** Detects anomalies in the given transactions (chunked). */
export async function detectTransactions(
  knex: Knex,
  transactionIds: string[],
  options: DetectionOptions,
): Promise<DetectionSummary> {
  const summary: DetectionSummary = { transactions: 0, detected: 0, resolved: 0, pending: 0 };
  for (let i = 0; i < transactionIds.length; i += CHUNK) {
    const chunk = transactionIds.slice(i, i + CHUNK);
    const contexts = await gatherFacts(knex, chunk);
    const rules = options.codes
      ? RULES.filter((r) => ruleCodes(r).some((c) => options.codes!.includes(c)))
      : RULES;
    const verdicts = contexts.map((c) => ({
      tx: c.tx as TxRow,
      verdicts: evaluateAll(c, rules).filter((v) => !options.codes || options.codes.includes(v.code)),
    }));
    const s = await record(knex, verdicts, options);
    summary.transactions += chunk.length;
    summary.detected += s.detected;
    summary.resolved += s.resolved;
    summary.pending += s.pending;
  }
  return summary;
}

function ruleCodes(rule: Rule): string[] {
  return rule.code === 'ODOMETER_BACKWARDS' ? ['ODOMETER_BACKWARDS', 'IMPOSSIBLE_DISTANCE'] : [rule.code];
}

/** The facts of every rule for a chunk of transactions (7 statements, whatever the chunk size). */
export async function gatherFacts(knex: Knex, ids: string[]): Promise<RuleContext[]> {
  const txs = await rows<TxRow>(
    knex,
    `select id, organization_id as "organizationId", transacted_at as "transactedAt", quantity,
            quantity_unit as "quantityUnit", energy_type as "energyType", product_category as "productCategory",
            transaction_type as "transactionType", odometer_km as "odometerKm", gross_unit_price as "grossUnitPrice",
            currency, station_latitude as "stationLatitude", station_longitude as "stationLongitude",
            station_postal_code as "stationPostalCode", station_city as "stationCity", vehicle_id as "vehicleId",
            device_id as "deviceId", driver_id as "driverId", group_id as "groupId",
            external_source as "externalSource", external_id as "externalId"
       from mobility.transactions where id = any(?::uuid[])`,
    [ids],
  );
  if (txs.length === 0) return [];
  const withVehicle = txs.filter((t) => t.vehicleId);
  const vehicleIds = [...new Set(withVehicle.map((t) => t.vehicleId!))];
  const vehicles = new Map(
    (
      await rows<VehicleFacts>(
        knex,
        `select id, fuel_type as "fuelType", vehicle_type as "vehicleType",
                fuel_tank_capacity_l as "fuelTankCapacityL", battery_capacity_kwh as "batteryCapacityKwh"
           from fleet_contract.vehicles_v1 where id = any(?::uuid[])`,
        [vehicleIds],
      )
    ).map((v) => [v.id, v]),
  );
  const txIds = withVehicle.map((t) => t.id);
  const window = `${THRESHOLDS.positionWindowMin} minutes`;
  const positions = new Map<string, PositionFact[]>();
  for (const p of await rows<PositionFact & { txId: string }>(
    knex,
    `select t.id as "txId", p.recorded_at as "recordedAt", p.latitude, p.longitude, p.source
       from mobility.transactions t
       cross join lateral (
         select v.recorded_at, v.latitude, v.longitude, v.source from fleet_contract.vehicle_positions_v1 v
          where v.vehicle_id = t.vehicle_id
            and v.recorded_at between t.transacted_at - ?::interval and t.transacted_at + ?::interval
         union all
         select l.recorded_at, l.latitude, l.longitude, 'LATE_' || l.source from mobility.late_positions l
          where l.vehicle_id = t.vehicle_id
            and l.recorded_at between t.transacted_at - ?::interval and t.transacted_at + ?::interval
       ) p
      where t.id = any(?::uuid[])`,
    [window, window, window, window, txIds],
  )) {
    const list = positions.get(p.txId) ?? [];
    list.push({ recordedAt: p.recordedAt, latitude: p.latitude, longitude: p.longitude, source: p.source });
    positions.set(p.txId, list);
  }
  const previousRows = await rows<PreviousFill & { txId: string; rank: number }>(knex, PREVIOUS_FILLS, [
    txIds,
  ]);
  const previous = new Map<string, PreviousFill[]>();
  for (const r of previousRows) {
    const list = previous.get(r.txId) ?? [];
    list.push({ id: r.id, transactedAt: r.transactedAt, odometerKm: r.odometerKm, quantity: r.quantity });
    previous.set(r.txId, list);
  }
  // Distance driven (fleet trips started) between the previous fill and this one; trips known at all.
  const prevOf = (id: string) => previous.get(id)?.[0] ?? null;
  const distRows = await rows<{ txId: string; km: number | null; known: boolean }>(
    knex,
    `select x.tx_id as "txId",
            (select sum(tr.distance_m) / 1000.0 from fleet_contract.trips_v1 tr
              where tr.vehicle_id = x.vehicle_id and tr.started_at >= x.since and tr.started_at < x.at)::float8 as km,
            exists (select 1 from fleet_contract.trips_v1 tr
              where tr.vehicle_id = x.vehicle_id and tr.started_at >= x.at - interval '90 days' and tr.started_at < x.at) as known
       from unnest(?::uuid[], ?::uuid[], ?::timestamptz[], ?::timestamptz[]) as x(tx_id, vehicle_id, since, at)`,
    [
      withVehicle.map((t) => t.id),
      withVehicle.map((t) => t.vehicleId),
      withVehicle.map((t) => prevOf(t.id)?.transactedAt ?? t.transactedAt),
      withVehicle.map((t) => t.transactedAt),
    ],
  );
  const distance = new Map(distRows.map((r) => [r.txId, r]));
  // Median gross unit price per organization, product, postal area, ISO week and currency.
  const keyOf = (t: TxRow) => {
    const area = priceArea(t.stationPostalCode);
    if (!area || t.grossUnitPrice == null || !t.currency) return null;
    return [
      t.organizationId,
      t.productCategory,
      area,
      isoWeekStart(t.transactedAt).toISOString(),
      t.currency,
    ];
  };
  const keys = [
    ...new Map(
      txs
        .map(keyOf)
        .filter((k) => k)
        .map((k) => [JSON.stringify(k), k!]),
    ).values(),
  ];
  const medians = new Map<string, { median: number; n: number }>();
  if (keys.length > 0) {
    for (const m of await rows<{ k: string; median: number; n: number }>(
      knex,
      `select k.org || '|' || k.cat || '|' || k.area || '|' || k.i::text || '|' || k.cur as k,
              percentile_cont(0.5) within group (order by t.gross_unit_price) as median, count(*)::int as n
         from unnest(?::uuid[], ?::text[], ?::text[], ?::timestamptz[], ?::text[], ?::int[]) as k(org, cat, area, week, cur, i)
         join mobility.transactions t
           on t.product_category = k.cat and t.organization_id = k.org
          and t.transacted_at >= k.week and t.transacted_at < k.week + interval '7 days'
          and t.price_area = k.area and t.currency = k.cur
          and t.gross_unit_price is not null and t.transaction_type in ('REFILL', 'CHARGE', 'PURCHASE')
        group by 1`,
      [...[0, 1, 2, 3, 4].map((i) => keys.map((k) => k[i])), keys.map((_, i) => i)],
    )) {
      const [org, cat, area, index, cur] = m.k.split('|');
      const week = keys[Number(index)]![3];
      medians.set(`${org}|${cat}|${area}|${week}|${cur}`, { median: m.median, n: m.n });
    }
  }
  return txs.map((tx) => {
    const k = keyOf(tx);
    const sample = k ? medians.get(k.join('|')) : undefined;
    const d = distance.get(tx.id);
    return {
      tx,
      vehicle: tx.vehicleId ? (vehicles.get(tx.vehicleId) ?? null) : null,
      positions: positions.get(tx.id) ?? [],
      previous: referenceFill(previous.get(tx.id) ?? []),
      distanceSincePreviousKm: d?.km ?? null,
      vehicleHasTrips: d?.known ?? false,
      priceSample: sample && k ? { ...sample, area: k[2]!, week: k[3]!.slice(0, 10) } : null,
    };
  });
}

/**
 * The previous fill to compare odometers with: the latest one whose own reading is consistent with
 * the fill before it (not lower, not faster than the maximum average speed), so that one wrong
 * reading is flagged once and does not make the next honest fill look wrong too.
 */
export function referenceFill(fills: PreviousFill[]): PreviousFill | null {
  if (fills.length === 0) return null;
  for (let i = 0; i < fills.length - 1; i++) {
    const a = fills[i]!;
    const b = fills[i + 1]!;
    if (a.odometerKm == null || b.odometerKm == null) return a;
    const hours = Math.max((a.transactedAt.getTime() - b.transactedAt.getTime()) / 3_600_000, 1 / 60);
    const delta = a.odometerKm - b.odometerKm;
    const consistent =
      delta >= -THRESHOLDS.odometerToleranceKm &&
      !(delta > 50 && delta / hours > THRESHOLDS.maxAverageSpeedKmh);
    if (consistent) return a;
  }
  return fills[0]!;
}

/** Monday 00:00 UTC of the ISO week of `d`. */
export function isoWeekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - dow * 86_400_000);
}

async function record(
  knex: Knex,
  results: Array<{ tx: TxRow; verdicts: Verdict[] }>,
  options: DetectionOptions,
): Promise<{ detected: number; resolved: number; pending: number }> {
  const ids = results.map((r) => r.tx.id);
  const active = new Map<string, { id: string; status: string }>();
  for (const a of await rows<{ id: string; transaction_id: string; code: string; status: string }>(
    knex,
    'select id, transaction_id, code, status from mobility.anomalies where transaction_id = any(?::uuid[]) and active',
    [ids],
  ))
    active.set(`${a.transaction_id}|${a.code}`, a);
  const inserts: Record<string, unknown>[] = [];
  const resolve: string[] = [];
  const pending: Record<string, unknown>[] = [];
  const settled: Array<[string, string]> = [];
  const now = options.now;
  for (const { tx, verdicts } of results) {
    for (const v of verdicts) {
      const existing = active.get(`${tx.id}|${v.code}`);
      if (v.kind === 'inconclusive') {
        pending.push({
          transaction_id: tx.id,
          code: v.code,
          reason: v.reason,
          vehicle_id: tx.vehicleId,
          transacted_at: tx.transactedAt,
          first_checked_at: now,
          last_checked_at: now,
        });
        continue;
      }
      settled.push([tx.id, v.code]);
      if (v.kind === 'anomaly' && !existing) inserts.push(anomalyRow(tx, v, now));
      if (v.kind === 'pass' && existing && existing.status === 'DETECTED' && options.reevaluation)
        resolve.push(existing.id);
    }
  }
  await knex.transaction(async (trx) => {
    for (let i = 0; i < inserts.length; i += 1000) {
      const batch = inserts.slice(i, i + 1000);
      const created = await trx('mobility.anomalies').insert(batch).returning(['id', 'detected_at']);
      await trx('mobility.anomaly_events').insert(
        created.map((c: { id: string; detected_at: Date }) => ({
          anomaly_id: c.id,
          at: c.detected_at,
          status: 'DETECTED',
          actor: 'SYSTEM',
          actor_id: RULES_VERSION,
          note: options.reevaluation ? 're-evaluation' : 'import',
        })),
      );
    }
    if (resolve.length > 0) {
      await trx('mobility.anomalies').whereIn('id', resolve).update({
        status: 'RESOLVED',
        active: false,
        cleared_at: now,
        cleared_by: 'SYSTEM',
        cleared_by_id: RULES_VERSION,
        clear_reason: 're-evaluation with the data available now no longer finds it',
      });
      await trx('mobility.anomaly_events').insert(
        resolve.map((id) => ({
          anomaly_id: id,
          at: now,
          status: 'RESOLVED',
          actor: 'SYSTEM',
          actor_id: RULES_VERSION,
          note: 're-evaluation',
        })),
      );
    }
    if (settled.length > 0) {
      await trx.raw(
        `delete from mobility.pending_checks p using unnest(?::uuid[], ?::text[]) as s(tx, code)
          where p.transaction_id = s.tx and p.code = s.code`,
        [settled.map((s) => s[0]), settled.map((s) => s[1])],
      );
    }
    for (let i = 0; i < pending.length; i += 1000) {
      await trx('mobility.pending_checks')
        .insert(pending.slice(i, i + 1000))
        .onConflict(['transaction_id', 'code'])
        .merge({
          reason: trx.raw('excluded.reason'),
          last_checked_at: trx.raw('excluded.last_checked_at'),
          attempts: trx.raw('mobility.pending_checks.attempts + 1'),
        });
    }
  });
  return { detected: inserts.length, resolved: resolve.length, pending: pending.length };
}

function anomalyRow(tx: TxRow, f: Finding, now: Date): Record<string, unknown> {
  return {
    transaction_id: tx.id,
    organization_id: tx.organizationId,
    code: f.code,
    description: f.description,
    severity: f.severity,
    severity_rank: SEVERITY_RANK[f.severity],
    status: 'DETECTED',
    active: true,
    detected_at: now,
    detected_by: 'SYSTEM',
    detected_by_id: RULES_VERSION,
    expected_value: f.expected,
    observed_value: f.observed,
    unit: f.unit,
    evidence: JSON.stringify(f.evidence),
    vehicle_id: tx.vehicleId,
    device_id: tx.deviceId,
    driver_id: tx.driverId,
    group_id: tx.groupId,
    transacted_at: tx.transactedAt,
    product_category: tx.productCategory,
    transaction_type: tx.transactionType,
    external_source: tx.externalSource,
    external_id: tx.externalId,
    location_city: tx.stationCity,
    location_postal_code: tx.stationPostalCode,
    location_latitude: tx.stationLatitude,
    location_longitude: tx.stationLongitude,
  };
}

/**
 * Re-evaluation when positions arrive late: the pending checks and the active (DETECTED)
 * position findings of the given vehicles (all when none given) with a transaction inside the
 * window, re-run for the position rule. Findings become anomalies, passes clear DETECTED ones.
 */
export async function reevaluate(
  knex: Knex,
  options: { now: Date; vehicleIds?: string[]; from?: Date; to?: Date },
): Promise<DetectionSummary> {
  const codes = ['VEHICLE_NOT_AT_STATION'];
  const scope = (q: Knex.QueryBuilder, vehicleColumn: string, timeColumn: string) => {
    if (options.vehicleIds) q.whereIn(vehicleColumn, options.vehicleIds);
    if (options.from)
      q.where(timeColumn, '>=', new Date(options.from.getTime() - THRESHOLDS.positionWindowMin * 60_000));
    if (options.to)
      q.where(timeColumn, '<=', new Date(options.to.getTime() + THRESHOLDS.positionWindowMin * 60_000));
    return q;
  };
  const pending = await scope(
    knex('mobility.pending_checks').whereIn('code', codes).select('transaction_id as id'),
    'vehicle_id',
    'transacted_at',
  );
  const found = await scope(
    knex('mobility.anomalies')
      .whereIn('code', codes)
      .where({ active: true, status: 'DETECTED' })
      .select('transaction_id as id'),
    'vehicle_id',
    'transacted_at',
  );
  const ids = [...new Set([...pending, ...found].map((r: { id: string }) => r.id))];
  return detectTransactions(knex, ids, { now: options.now, reevaluation: true, codes });
}

/**
 * A user's decision on an anomaly: CONFIRMED (stays active) or DISMISSED (cleared, clearedBy USER).
 * The transition is recorded as an event; a cleared anomaly cannot change again.
 */
export async function reviewAnomaly(
  knex: Knex,
  input: {
    anomalyId: string;
    accountId: string;
    decision: 'CONFIRMED' | 'DISMISSED';
    note?: string;
    now: Date;
  },
): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const update =
      input.decision === 'DISMISSED'
        ? {
            status: 'DISMISSED',
            active: false,
            cleared_at: input.now,
            cleared_by: 'USER',
            cleared_by_id: input.accountId,
            clear_reason: input.note ?? 'dismissed by a user',
          }
        : { status: 'CONFIRMED' };
    const changed = await trx('mobility.anomalies')
      .where({ id: input.anomalyId, active: true })
      .update(update);
    if (changed === 0) return false;
    await trx('mobility.anomaly_events').insert({
      anomaly_id: input.anomalyId,
      at: input.now,
      status: input.decision,
      actor: 'USER',
      actor_id: input.accountId,
      note: input.note ?? null,
    });
    return true;
  });
}
