/**
 * Demo data: a global catalog of service templates with plausible intervals per vehicle type and
 * fuel type, an organization's own template (imported from an outside system), and years of
 * service history for every vehicle fleet-core seeded, consistent with its odometer.
 *
 * History of a vehicle (read through fleet_contract.vehicles_v1 / vehicle_latest_odometer_v1): it is
 * assumed to have driven at a constant rate since January 1 of its model year (rate = current
 * odometer / age), so its mileage on any date is known. For each applicable template, services
 * are done a few days before each deadline (whichever of distance and time comes first), from
 * the vehicle's start until today; only the last 5 years are written. About one pair in ten is
 * "neglected" (its last service is missing), so OVERDUE appears next to DUE_SOON and PLANNED.
 * Deterministic: a PRNG seeded by the vehicle id, dates relative to `context.now`.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { DemoDataContext, DemoSeedResult } from '@fleetgraph/subgraph-kit';
import { addIntervalMs, applies, DAY_MS, type TemplateRule } from '../domain/upcoming';
import { refreshUpcoming } from '../data/upcoming-store';

const tid = (n: number) => `d7000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const COMBUSTION = ['GASOLINE', 'DIESEL', 'HYBRID', 'PLUGIN_HYBRID', 'LPG', 'CNG', 'OTHER'];
const LIGHT = ['CAR', 'VAN', 'LIGHT_TRUCK', 'MOTORCYCLE', 'OTHER'];
const HEAVY = ['HEAVY_TRUCK', 'BUS'];
const ELECTRIFIED = ['ELECTRIC', 'PLUGIN_HYBRID', 'HYBRID'];

type Seeded = Omit<TemplateRule, 'organizationId' | 'fromExternalService'>;
const rule = (
  n: number,
  description: string,
  system: string,
  intervalKm: number | null,
  intervalMonths: number | null,
  vehicleTypes: string[] | null = null,
  fuelTypes: string[] | null = null,
): Seeded => ({
  id: tid(n),
  description,
  system,
  intervalKm,
  intervalMonths,
  intervalDays: null,
  vehicleTypes,
  fuelTypes,
});

/** The global catalog (manufacturer-style intervals). */
export const CATALOG: Seeded[] = [
  rule(1, 'Engine oil and oil filter change', 'ENGINE', 15000, 12, LIGHT, COMBUSTION),
  rule(2, 'Engine oil and filters change (heavy duty)', 'ENGINE', 60000, 12, HEAVY, COMBUSTION),
  rule(3, 'Brake pads and discs check', 'BRAKES', 30000, 24, null, null),
  rule(4, 'Brake fluid replacement', 'BRAKES', null, 24, null, null),
  rule(5, 'Tire rotation and pressure check', 'TIRES', 10000, 6, LIGHT, null),
  rule(6, 'Tire tread and wear inspection', 'TIRES', 20000, 6, HEAVY, null),
  rule(7, 'Annual safety inspection', 'INSPECTION', null, 12, null, null),
  rule(8, 'Air filter replacement', 'FILTERS', 30000, 24, null, COMBUSTION),
  rule(9, 'Cabin filter replacement', 'FILTERS', 20000, 12, null, null),
  rule(10, 'Coolant replacement', 'COOLING', 100000, 48, null, null),
  rule(11, 'Transmission fluid change', 'TRANSMISSION', 60000, 48, null, COMBUSTION),
  rule(12, 'Traction battery and charging system check', 'HIGH_VOLTAGE', 30000, 12, null, ELECTRIFIED),
  rule(13, 'Air conditioning service', 'HVAC', null, 24, null, null),
  rule(14, 'Tachograph calibration check', 'INSPECTION', null, 24, HEAVY, null),
];

/** An organization's own template, as imported from its previous maintenance system. */
export const ORG_TEMPLATE = (organizationId: string) => ({
  id: tid(100),
  organization_id: organizationId,
  description: 'Liftgate and cargo door inspection (workshop plan)',
  system: 'BODY',
  from_external_service: true,
  external_id: 'WS-PLAN-LIFTGATE',
  interval_km: null,
  interval_months: 6,
  interval_days: null,
  vehicle_types: ['VAN', 'LIGHT_TRUCK', 'HEAVY_TRUCK'],
  fuel_types: null,
});

export async function maintenanceSeeded(knex: Knex): Promise<boolean> {
  return Boolean(await knex('maintenance.templates').first('id'));
}

function prng(seed: string) {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuidOf = (text: string) => {
  const h = createHash('sha1').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

interface DemoVehicle {
  id: string;
  organizationId: string;
  vehicleType: string | null;
  fuelType: string | null;
  modelYear: number | null;
  createdAt: Date;
  odometerKm: number | null;
}

export interface HistoryRow {
  id: string;
  vehicle_id: string;
  template_id: string;
  mileage_km: number;
  done_at: Date;
  notes: string | null;
}

/** The simulated service history of one vehicle (pure; exported for tests). */
export function simulateHistory(vehicle: DemoVehicle, templates: TemplateRule[], now: Date): HistoryRow[] {
  if (vehicle.odometerKm === null) return [];
  const rng = prng(`maintenance-demo:${vehicle.id}`);
  const nowMs = now.getTime();
  const modelStart = vehicle.modelYear ? Date.UTC(vehicle.modelYear, 0, 1) : vehicle.createdAt.getTime();
  const start = Math.min(modelStart, nowMs - 120 * DAY_MS);
  const rate = vehicle.odometerKm / ((nowMs - start) / DAY_MS); // km/day
  const mileageAt = (t: number) =>
    Math.max(0, Math.round(vehicle.odometerKm! - (rate * (nowMs - t)) / DAY_MS));
  const window = nowMs - 5 * 365 * DAY_MS;
  const rows: HistoryRow[] = [];
  const facts = {
    id: vehicle.id,
    organizationId: vehicle.organizationId,
    vehicleType: vehicle.vehicleType,
    fuelType: vehicle.fuelType,
    createdAt: vehicle.createdAt,
    odometerKm: vehicle.odometerKm,
    recentKm: 0,
  };
  for (const template of templates) {
    if (!applies(template, facts)) continue;
    const neglected = rng() < 0.1;
    const services: Array<{ at: number; km: number }> = [];
    let t = start;
    for (let guard = 0; guard < 200; guard++) {
      const byDate =
        template.intervalMonths || template.intervalDays
          ? addIntervalMs(t, template.intervalMonths, template.intervalDays)
          : Infinity;
      const byKm = template.intervalKm && rate > 0 ? t + (template.intervalKm / rate) * DAY_MS : Infinity;
      const due = Math.min(byDate, byKm);
      if (!Number.isFinite(due)) break;
      const done = Math.max(t + DAY_MS, due - Math.floor(rng() * 21) * DAY_MS);
      if (done >= nowMs) break;
      services.push({ at: done, km: mileageAt(done) });
      t = done;
    }
    if (neglected && services.length > 1) services.pop();
    services.forEach((s, n) => {
      if (s.at < window) return;
      rows.push({
        id: uuidOf(`maintenance-demo:${vehicle.id}:${template.id}:${n}`),
        vehicle_id: vehicle.id,
        template_id: template.id,
        mileage_km: s.km,
        done_at: new Date(s.at),
        notes: rng() < 0.2 ? 'Done by the partner workshop' : null,
      });
    });
  }
  return rows;
}

/** Vehicles are read and their history written this many at a time: the seed's memory stays flat. */
const VEHICLE_PAGE = 2000;

/** The demo vehicles after `after` (id order), a page at a time. */
async function vehiclePage(knex: Knex, after: string): Promise<DemoVehicle[]> {
  const { rows } = await knex.raw(
    `select v.id, v.organization_id as "organizationId", v.vehicle_type as "vehicleType", v.fuel_type as "fuelType",
            v.model_year as "modelYear", v.created_at as "createdAt",
            coalesce(o.odometer_km, v.odometer_km)::float8 as "odometerKm"
       from (select * from fleet_contract.vehicles_v1 v where v.id > ?::uuid order by v.id limit ?) v
       left join lateral (
         select r.odometer_km from fleet_contract.vehicle_latest_odometer_v1 r
          where r.vehicle_id = v.id offset 0) o on true
      order by v.id`,
    [after, VEHICLE_PAGE],
  );
  return rows.map((v: DemoVehicle) => ({
    ...v,
    odometerKm: v.odometerKm === null ? null : Number(v.odometerKm),
  }));
}

export async function seedMaintenance(knex: Knex, context: DemoDataContext): Promise<DemoSeedResult> {
  const now = context.now;
  const started = Date.now();
  const demoOrg: { organization_id: string } | undefined = await knex('fleet_contract.accounts_v1')
    .where('email', 'demo@fleetgraph.dev')
    .first('organization_id');
  const templates: TemplateRule[] = CATALOG.map((t) => ({
    ...t,
    organizationId: null,
    fromExternalService: false,
  }));
  const total = Number((await knex('fleet_contract.vehicles_v1').count('* as n').first())?.n ?? 0);
  await knex.transaction(async (trx) => {
    await trx('maintenance.templates').insert(
      CATALOG.map((t) => ({
        id: t.id,
        organization_id: null,
        description: t.description,
        system: t.system,
        interval_km: t.intervalKm,
        interval_months: t.intervalMonths,
        vehicle_types: t.vehicleTypes,
        fuel_types: t.fuelTypes,
      })),
    );
    if (demoOrg) {
      const own = ORG_TEMPLATE(demoOrg.organization_id);
      await trx('maintenance.templates').insert(own);
      templates.push({
        id: own.id,
        organizationId: own.organization_id,
        description: own.description,
        system: own.system,
        fromExternalService: true,
        intervalKm: null,
        intervalMonths: own.interval_months,
        intervalDays: null,
        vehicleTypes: own.vehicle_types,
        fuelTypes: null,
      });
    }
    let written = 0;
    let vehicles = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const page = await vehiclePage(trx, after);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const rows = page.flatMap((vehicle) => simulateHistory(vehicle, templates, now));
      for (let i = 0; i < rows.length; i += 5000)
        await trx.batchInsert('maintenance.history', rows.slice(i, i + 5000), 1000);
      written += rows.length;
      vehicles += page.length;
      if (context.progress && total > VEHICLE_PAGE)
        context.log(`maintenance: history of ${vehicles}/${total} vehicles (${written} service records)`);
    }
    context.log(
      `maintenance: ${templates.length} templates, ${written} service records for ${vehicles} vehicles`,
    );
  });
  // The kept upcoming work, built now rather than by the first request.
  const kept = await refreshUpcoming(knex, now, 'all', (done) => {
    if (context.progress && total > VEHICLE_PAGE && done % (VEHICLE_PAGE * 5) === 0)
      context.log(`maintenance: upcoming work of ${done}/${total} vehicles`);
  });
  context.log(
    `maintenance: upcoming work kept for ${kept.vehicles} vehicles (${kept.written} items) in ${Date.now() - started} ms in all`,
  );
  return { counts: { templates: templates.length } };
}
