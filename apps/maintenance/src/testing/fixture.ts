/**
 * Maintenance rows for the app-level tests, on top of fleet-core's test fixture (facts F):
 *
 *   now = 2026-03-31T00:00:00Z (MAINTENANCE_NOW)
 *   V1 = depot vehicle 1 (VAN): odometer 10,000 km, 30 fixture trips in March (20..49 km) -> 34.5 km/day
 *   V2 = depot vehicle 2: odometer 20,000 km, no trips (idle)
 *   V3 = depot vehicle 3: no odometer (set null through the contract view), created 2025-04-09
 *   S1 = south vehicle 1: odometer 100,000 km, 5 fixture trips (20..24 km) -> 110/30 km/day
 *   G  = the Globex vehicle
 * Every fixture vehicle is created 2024-01-01 unless said otherwise (set through the view).
 * Fleet facts are arranged through fleet-core's contract views (simple views, updatable), never
 * its tables.
 */
import type { Knex } from 'knex';

const id = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const NOW = '2026-03-31T00:00:00.000Z';

export const M = {
  templates: {
    oil: id(1, 'b7000000'),
    brakes: id(2, 'b7000000'),
    inspection: id(3, 'b7000000'),
    tires: id(4, 'b7000000'),
    globexOil: id(9, 'b7000000'),
    hvacVans: id(10, 'b7000000'),
    busBody: id(11, 'b7000000'),
  },
  history: {
    v1Oil: id(1, 'b8000000'),
    v1Tires: id(2, 'b8000000'),
    v2Oil: id(3, 'b8000000'),
    v2Tires: id(4, 'b8000000'),
    s1Oil: id(5, 'b8000000'),
    gOil: id(9, 'b8000000'),
  },
  thresholds: { globexUrgent: id(1, 'b9000000'), globexNormal: id(2, 'b9000000') },
};

export async function seedMaintenanceFixture(knex: Knex, F: any): Promise<void> {
  const [v1, v2, v3] = F.vehicles.depot as string[];
  const [s1] = F.vehicles.south as string[];
  // Test setup playing fleet-core's part (the contract views are read-only): creation dates and
  // a vehicle without odometer, the cases the computation rules name.
  await knex('fleet.vehicles').update({ created_at: new Date('2024-01-01T00:00:00Z') });
  await knex('fleet.vehicles')
    .where('id', v3)
    .update({ odometer_km: null, created_at: new Date('2025-04-09T00:00:00Z') });
  const t = M.templates;
  const template = (
    tid: string,
    org: string | null,
    description: string,
    system: string,
    km: number | null,
    months: number | null,
    extra: Record<string, unknown> = {},
  ) => ({
    id: tid,
    organization_id: org,
    description,
    system,
    interval_km: km,
    interval_months: months,
    ...extra,
  });
  await knex('maintenance.templates').insert([
    template(t.oil, F.orgA, 'Engine oil and filter', 'ENGINE', 15000, 12),
    template(t.brakes, F.orgA, 'Brake pads', 'BRAKES', 30000, null),
    template(t.inspection, F.orgA, 'Annual inspection', 'INSPECTION', null, 12, {
      from_external_service: true,
    }),
    template(t.tires, F.orgA, 'Tire rotation', 'TIRES', 5000, 6),
    template(t.globexOil, F.orgB, 'Globex oil', 'ENGINE', 10000, null),
    template(t.hvacVans, null, 'Air conditioning service (vans)', 'HVAC', null, 24, {
      vehicle_types: ['VAN'],
    }),
    template(t.busBody, null, 'Bus body check', 'BODY', null, 24, { vehicle_types: ['BUS'] }),
  ]);
  const h = M.history;
  const record = (hid: string, vehicle: string, tid: string, km: number, at: string) => ({
    id: hid,
    vehicle_id: vehicle,
    template_id: tid,
    mileage_km: km,
    done_at: new Date(at),
  });
  await knex('maintenance.history').insert([
    record(h.v1Oil, v1!, t.oil, 1000, '2025-09-15T00:00:00Z'),
    record(h.v1Tires, v1!, t.tires, 9800, '2026-03-01T00:00:00Z'),
    record(h.v2Oil, v2!, t.oil, 5000, '2025-01-15T00:00:00Z'),
    record(h.v2Tires, v2!, t.tires, 15500, '2025-10-20T00:00:00Z'),
    record(h.s1Oil, s1!, t.oil, 104000, '2026-03-15T00:00:00Z'),
    record(h.gOil, F.vehicles.globex, t.globexOil, 985000, '2026-01-10T00:00:00Z'),
  ]);
  await knex('maintenance.criticality_thresholds').insert([
    {
      id: M.thresholds.globexUrgent,
      organization_id: F.orgB,
      code: 'URGENT',
      criticality: 5,
      remaining_distance_km: 2000,
      remaining_days: 30,
      description: 'Globex: book the workshop now.',
    },
    {
      id: M.thresholds.globexNormal,
      organization_id: F.orgB,
      code: 'NORMAL',
      criticality: 1,
      remaining_distance_km: null,
      remaining_days: null,
      description: 'Globex: nothing to do yet.',
    },
  ]);
}
