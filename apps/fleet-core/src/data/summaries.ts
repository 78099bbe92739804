/**
 * Per-device aggregates (Device.tripSummary, Device.aggregatedData) as batched loaders: all the
 * devices of a request asking for the same period are answered by one SQL statement
 * (`unnest(ids) cross join lateral (aggregate)`), so the statement count never depends on how
 * many devices a page holds. The parent device was loaded through visibility already.
 */
import { arrayParameter } from '@fleetgraph/db';
import DataLoader from 'dataloader';
import type { Knex } from 'knex';

export interface Period {
  from?: Date | null;
  to?: Date | null;
}

export interface TripSummaryModel {
  from: Date | null;
  to: Date | null;
  tripCount: number;
  distanceM: number;
  drivingS: number;
  idleS: number;
  maxSpeedKmh: number | null;
  fuelUsedL: number | null;
  harshCount: number;
  overspeedCount: number;
  firstStartedAt: Date | null;
  lastEndedAt: Date | null;
}

export interface AggregatedDataModel {
  from: Date | null;
  to: Date | null;
  readingCount: number;
  fieldCount: number;
  lastReadingAt: Date | null;
  batteryAnnotationCount: number;
  batteryVoltageMin: number | null;
  batteryVoltageAvg: number | null;
  batteryVoltageMax: number | null;
  lowBatteryCount: number;
  historyEventCount: number;
  connectionCount: number;
}

interface Key {
  deviceId: string;
  period: Period;
}

const periodKey = (p: Period) => JSON.stringify([p.from?.toISOString() ?? null, p.to?.toISOString() ?? null]);

/** `<column> >= from and <column> < to`, each bound only when given. */
function windowSql(column: string, period: Period): { sql: string; bindings: unknown[] } {
  const parts: string[] = [];
  const bindings: unknown[] = [];
  if (period.from) {
    parts.push(`${column} >= ?`);
    bindings.push(period.from);
  }
  if (period.to) {
    parts.push(`${column} < ?`);
    bindings.push(period.to);
  }
  return { sql: parts.length ? ` and ${parts.join(' and ')}` : '', bindings };
}

function batched<M>(
  knex: Knex,
  statement: (period: Period) => { sql: string; bindings: unknown[] },
  toModel: (row: Record<string, unknown>, period: Period) => M,
) {
  return new DataLoader<Key, M, string>(
    async (keys) => {
      const byPeriod = new Map<string, { period: Period; ids: Set<string> }>();
      for (const key of keys) {
        const group = byPeriod.get(periodKey(key.period)) ?? { period: key.period, ids: new Set() };
        group.ids.add(key.deviceId);
        byPeriod.set(periodKey(key.period), group);
      }
      const found = new Map<string, M>();
      for (const [pk, { period, ids }] of byPeriod) {
        const { sql, bindings } = statement(period);
        const rows: Array<Record<string, unknown>> = (
          await knex.raw(
            `select *, p.parent_id as "__parent" from unnest(${arrayParameter('text')}) as p(parent_id) ${sql}`,
            [[...ids], ...bindings] as Knex.RawBinding[],
          )
        ).rows;
        for (const row of rows) found.set(JSON.stringify([row.__parent, pk]), toModel(row, period));
      }
      return keys.map(
        (k) => found.get(JSON.stringify([k.deviceId, periodKey(k.period)])) ?? toModel({}, k.period),
      );
    },
    { cacheKeyFn: (k) => JSON.stringify([k.deviceId, periodKey(k.period)]) },
  );
}

const num = (v: unknown) => (v == null ? 0 : Number(v));
const numOrNull = (v: unknown) => (v == null ? null : Number(v));

/** The summary loaders, each made on first use in a request (lazyFields in ../reader.ts). */
export const summaryLoaderMakers = {
  tripSummary: ({ knex }: { knex: Knex }) =>
    batched<TripSummaryModel>(
      knex,
      (period) => {
        const trips = windowSql('t.started_at', period);
        const harshes = windowSql('h.occurred_at', period);
        const overspeeds = windowSql('o.started_at', period);
        return {
          sql: `cross join lateral (
              select count(*) as trip_count, sum(t.distance_m) as distance_m,
                     sum(extract(epoch from t.ended_at - t.started_at)) as driving_s, sum(t.idle_s) as idle_s,
                     max(t.max_speed_kmh) as max_speed_kmh, sum(t.fuel_used_l) as fuel_used_l,
                     min(t.started_at) as first_started_at, max(t.ended_at) as last_ended_at
                from fleet.trips t where t.device_id = p.parent_id${trips.sql}) s
            cross join lateral (select count(*) as harsh_count from fleet.trip_harshes h
                where h.device_id = p.parent_id${harshes.sql}) hc
            cross join lateral (select count(*) as overspeed_count from fleet.trip_overspeeds o
                where o.device_id = p.parent_id${overspeeds.sql}) oc`,
          bindings: [...trips.bindings, ...harshes.bindings, ...overspeeds.bindings],
        };
      },
      (row, period) => ({
        from: period.from ?? null,
        to: period.to ?? null,
        tripCount: num(row.trip_count),
        distanceM: num(row.distance_m),
        drivingS: Math.round(num(row.driving_s)),
        idleS: num(row.idle_s),
        maxSpeedKmh: numOrNull(row.max_speed_kmh),
        fuelUsedL: numOrNull(row.fuel_used_l),
        harshCount: num(row.harsh_count),
        overspeedCount: num(row.overspeed_count),
        firstStartedAt: (row.first_started_at as Date | null) ?? null,
        lastEndedAt: (row.last_ended_at as Date | null) ?? null,
      }),
    ),
  aggregatedData: ({ knex }: { knex: Knex }) =>
    batched<AggregatedDataModel>(
      knex,
      (period) => {
        const readings = windowSql('r.recorded_at', period);
        const battery = windowSql('b.recorded_at', period);
        const history = windowSql('dh.occurred_at', period);
        return {
          sql: `cross join lateral (
              select count(*) as reading_count, count(distinct r.field) as field_count,
                     max(r.recorded_at) as last_reading_at
                from fleet.readings r where r.device_id = p.parent_id${readings.sql}) s
            cross join lateral (
              select count(*) as battery_count, min(b.voltage) as voltage_min, avg(b.voltage) as voltage_avg,
                     max(b.voltage) as voltage_max,
                     count(*) filter (where b.state in ('LOW', 'CRITICAL')) as low_battery_count
                from fleet.battery_annotations b where b.device_id = p.parent_id${battery.sql}) bs
            cross join lateral (
              select count(*) as history_count, count(*) filter (where dh.event = 'CONNECTED') as connection_count
                from fleet.device_history dh where dh.device_id = p.parent_id${history.sql}) hs`,
          bindings: [...readings.bindings, ...battery.bindings, ...history.bindings],
        };
      },
      (row, period) => ({
        from: period.from ?? null,
        to: period.to ?? null,
        readingCount: num(row.reading_count),
        fieldCount: num(row.field_count),
        lastReadingAt: (row.last_reading_at as Date | null) ?? null,
        batteryAnnotationCount: num(row.battery_count),
        batteryVoltageMin: numOrNull(row.voltage_min),
        batteryVoltageAvg: row.voltage_avg == null ? null : Math.round(Number(row.voltage_avg) * 1000) / 1000,
        batteryVoltageMax: numOrNull(row.voltage_max),
        lowBatteryCount: num(row.low_battery_count),
        historyEventCount: num(row.history_count),
        connectionCount: num(row.connection_count),
      }),
    ),
};
