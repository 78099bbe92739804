/**
 * The kept upcoming work (migration 20261128_004): each vehicle's stored parts per template
 * (domain/upcoming.ts storedPartsOf), computed from fleet-core's contract and maintenance's own
 * tables, and brought up to date by refreshUpcoming:
 *
 * - `changes` (before each read): the vehicles a maintenance write marked (upcoming_dirty, kept by
 *   triggers on history), so a recorded service is seen by the next read. When the work was never
 *   built, or a template changed (upcoming_state `stale`), every vehicle is computed first. When
 *   the rows were computed for another UTC day (the 30-day window moved), a read runs `all` first.
 * - `all` (the timer, the demo seed): every vehicle's facts are read again in batches and
 *   compared with the facts its rows were computed from (upcoming_vehicles); only vehicles whose
 *   facts changed, new vehicles and vehicles gone are written. fleet-core publishes no change
 *   feed, so this pass is the channel for its facts (odometer, trips, vehicle type, fuel): their
 *   staleness is bounded by the timer's period plus one pass (README). It also moves the rows to a
 *   new day (a vehicle whose 30-day km changed is rewritten), usually before any read of that day.
 *
 * A refresh runs in one transaction holding an advisory lock, so two processes never write the
 * same rows at once; a read that finds work to do waits for a running refresh and checks again.
 */
import type { Knex } from 'knex';
import {
  encodeUpcomingId,
  storedForVehicle,
  type StoredUpcoming,
  type TemplateRule,
} from '../domain/upcoming';
import { factsFromRows, factsOf, selectAs, TEMPLATE_COLUMNS, type VehicleWithServices } from './tables';

/** Unknown sort values compare last (as data/upcoming-page.ts LAST). */
export const LAST = 1e15;
const LOCK_KEY = 4_404_044; // pg_advisory_xact_lock key of the refresh
const BATCH = 2000;

const day = (t: Date) => t.toISOString().slice(0, 10);

export interface RefreshResult {
  mode: 'changes' | 'all';
  vehicles: number;
  written: number;
}

/**
 * What reads at `now` need first: nothing (`fresh`), the marked vehicles (`changes`), or a pass
 * over every vehicle (`all`: the rows were computed for another UTC day, whose 30-day window
 * differs). One statement.
 */
export async function upcomingNeeds(knex: Knex, now: Date): Promise<'fresh' | 'changes' | 'all'> {
  const { rows } = await knex.raw(
    `select s.as_of_day = ?::date as today, s.as_of_day is not null and not s.stale
            and not exists (select 1 from maintenance.upcoming_dirty) as fresh
       from maintenance.upcoming_state s where s.id = 1`,
    [day(now)],
  );
  const r = rows[0] as { today: boolean | null; fresh: boolean };
  if (r.today === false) return 'all';
  return r.fresh ? 'fresh' : 'changes';
}

/** Every template (all organizations'): a vehicle's items are its organization's and the global ones. */
async function allTemplates(knex: Knex): Promise<TemplateRule[]> {
  return knex('maintenance.templates as t').select(selectAs(TEMPLATE_COLUMNS)).orderBy('t.id');
}

async function factsForIds(knex: Knex, ids: string[], now: Date): Promise<VehicleWithServices[]> {
  const { rows } = await factsOf(knex, knex.raw('select unnest(?::uuid[]) as id', [ids]), now);
  return factsFromRows(rows);
}

type Fingerprint = {
  organizationId: string;
  vehicleType: string | null;
  fuelType: string | null;
  createdAt: number;
  odometerKm: number | null;
  recentKm: number;
};

const same = (a: Fingerprint, v: VehicleWithServices) =>
  a.organizationId === v.organizationId &&
  a.vehicleType === v.vehicleType &&
  a.fuelType === v.fuelType &&
  a.createdAt === v.createdAt.getTime() &&
  a.odometerKm === v.odometerKm &&
  a.recentKm === v.recentKm;

const toRow = (s: StoredUpcoming, organizationId: string) => ({
  vehicle_id: s.vehicleId,
  template_id: s.templateId,
  organization_id: organizationId,
  uid: encodeUpcomingId({ vehicleId: s.vehicleId, templateId: s.templateId, cycle: s.cycle }),
  cycle: s.cycle,
  base_mileage_km: s.baseMileageKm,
  base_date_ms: s.baseDateMs,
  mileage_deadline: s.mileageDeadline,
  date_deadline_ms: s.dateDeadlineMs,
  current_mileage_km: s.currentMileageKm,
  odometer_source: s.odometerSource,
  average_daily_km: s.averageDailyKm,
  remaining_km: s.remainingDistanceToDrive,
  days_by_distance: s.remainingDaysByDistance,
  dd_key: s.dateDeadlineMs ?? LAST,
  km_key: s.remainingDistanceToDrive ?? LAST,
  dist_days_key: s.remainingDaysByDistance ?? LAST,
});

/** Writes the rows of `vehicles` (replacing theirs) and their fingerprints; one statement each. */
async function writeVehicles(
  trx: Knex.Transaction,
  vehicles: VehicleWithServices[],
  templates: TemplateRule[],
): Promise<number> {
  if (vehicles.length === 0) return 0;
  const ids = vehicles.map((v) => v.id);
  const rows = vehicles.flatMap((v) =>
    storedForVehicle(v, templates, v.services).map((s) => toRow(s, v.organizationId)),
  );
  await trx.raw('delete from maintenance.upcoming_work where vehicle_id = any(?::uuid[])', [ids]);
  // One json parameter per statement: one text whatever the number of rows.
  for (let i = 0; i < rows.length; i += 20_000)
    await trx.raw(
      `insert into maintenance.upcoming_work
       select * from json_populate_recordset(null::maintenance.upcoming_work, ?::json)`,
      [JSON.stringify(rows.slice(i, i + 20_000))],
    );
  await trx.raw(
    `insert into maintenance.upcoming_vehicles as u
       (vehicle_id, organization_id, vehicle_type, fuel_type, created_at, odometer_km, recent_km)
     select x.id, x."organizationId", x."vehicleType", x."fuelType", x."createdAt", x."odometerKm", x."recentKm"
       from json_to_recordset(?::json) as x(id uuid, "organizationId" uuid, "vehicleType" text,
            "fuelType" text, "createdAt" timestamptz, "odometerKm" float8, "recentKm" float8)
     on conflict (vehicle_id) do update set organization_id = excluded.organization_id,
       vehicle_type = excluded.vehicle_type, fuel_type = excluded.fuel_type,
       created_at = excluded.created_at, odometer_km = excluded.odometer_km, recent_km = excluded.recent_km`,
    [
      JSON.stringify(
        vehicles.map((v) => ({
          id: v.id,
          organizationId: v.organizationId,
          vehicleType: v.vehicleType,
          fuelType: v.fuelType,
          createdAt: v.createdAt.toISOString(),
          odometerKm: v.odometerKm,
          recentKm: v.recentKm,
        })),
      ),
    ],
  );
  return rows.length;
}

/**
 * Brings the kept upcoming work up to date for reads at `now` (see the header). `changes` does
 * only what reads need to be exact for maintenance's own writes and the day (a pass over every
 * vehicle when the day moved or a template changed); `all` compares every vehicle's facts.
 */
export async function refreshUpcoming(
  knex: Knex,
  now: Date,
  mode: 'changes' | 'all',
  onProgress?: (done: number) => void,
): Promise<RefreshResult> {
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [LOCK_KEY]);
    // The facts statement is index probes; without statistics its estimates would JIT-compile it.
    await trx.raw('set local jit = off');
    const { rows: stateRows } = await trx.raw(
      `select as_of_day::text as day, stale from maintenance.upcoming_state where id = 1`,
    );
    const state = stateRows[0] as { day: string | null; stale: boolean };
    const everything = state.day === null || state.stale;
    const templates = await allTemplates(trx);
    let vehicles = 0;
    let written = 0;
    if (everything || mode === 'all') {
      // The marks are taken now: a write committed after this point marks again.
      const { rows: marked } = await trx.raw(
        'delete from maintenance.upcoming_dirty returning vehicle_id as id',
      );
      const dirty = new Set<string>(marked.map((r: { id: string }) => r.id));
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const { rows } = await trx.raw(
          `select v.id from fleet_contract.vehicles_v1 v where v.id > ?::uuid order by v.id limit ?`,
          [after, BATCH],
        );
        if (rows.length === 0) break;
        const ids = rows.map((r: { id: string }) => r.id);
        after = ids[ids.length - 1]!;
        const facts = await factsForIds(trx, ids, now);
        let changed = facts;
        if (!everything) {
          const { rows: kept } = await trx.raw(
            `select vehicle_id as id, organization_id as "organizationId", vehicle_type as "vehicleType",
                    fuel_type as "fuelType", (extract(epoch from created_at) * 1000)::float8 as "createdAt",
                    odometer_km as "odometerKm", recent_km as "recentKm"
               from maintenance.upcoming_vehicles where vehicle_id = any(?::uuid[])`,
            [ids],
          );
          const byId = new Map<string, Fingerprint>(kept.map((k: Fingerprint & { id: string }) => [k.id, k]));
          changed = facts.filter((v) => {
            const k = byId.get(v.id);
            return !k || dirty.has(v.id) || !same(k, v);
          });
        }
        written += await writeVehicles(trx, changed, templates);
        vehicles += changed.length;
        onProgress?.(vehicles);
      }
      // Vehicles fleet-core no longer has.
      await trx.raw(`delete from maintenance.upcoming_work w
                      where not exists (select 1 from fleet_contract.vehicles_v1 v where v.id = w.vehicle_id)`);
      await trx.raw(`delete from maintenance.upcoming_vehicles u
                      where not exists (select 1 from fleet_contract.vehicles_v1 v where v.id = u.vehicle_id)`);
      await trx.raw(
        `update maintenance.upcoming_state set as_of_day = ?::date, stale = false, refreshed_at = now() where id = 1`,
        [day(now)],
      );
      return { mode: 'all', vehicles, written };
    }
    const { rows } = await trx.raw('delete from maintenance.upcoming_dirty returning vehicle_id as id');
    const ids = rows.map((r: { id: string }) => r.id);
    for (let i = 0; i < ids.length; i += BATCH) {
      const facts = await factsForIds(trx, ids.slice(i, i + BATCH), now);
      written += await writeVehicles(trx, facts, templates);
      vehicles += facts.length;
    }
    return { mode: 'changes', vehicles, written };
  });
}

/** Refreshes when reads at `now` need it (one cheap statement when they do not). */
export async function ensureUpcomingFresh(knex: Knex, now: Date): Promise<void> {
  const needs = await upcomingNeeds(knex, now);
  if (needs !== 'fresh') await refreshUpcoming(knex, now, needs);
}
