/**
 * Drivers, trips and device data of the test fixture (loaded after the core fixture):
 *
 *   North Depot: Anna Becker (K-001, profile bob, contact alice, drives depot vehicle 1 now)
 *                Bruno Keller (K-002, contact alice, no current vehicle)
 *   South:       Carla Diaz (no id key, inactive, drives south vehicle 1 now)
 *                Dieter Engel (K-004)
 *   Globex Root: Greta Globex (G-001, profile carol, drives the Globex vehicle)
 *
 *   depot device 1 (in depot vehicle 1, driver Anna): 30 daily trips from 2026-03-01 08:00,
 *     trip i lasts 30 + i minutes over 20 + i km, max speed 90 + i km/h, idle 60 s;
 *     a harsh event on every third trip (BRAKING, ACCELERATION alternating), an overspeed on
 *     every fifth; trip 0 has metadata purpose=BUSINESS and customer=ACME-42.
 *   south device 1 (south vehicle 1, driver Carla): 5 trips; Globex device 1: 3 trips.
 */
import type { Knex } from 'knex';
import { F } from './fixture';

const uuid = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const DAY = 86_400_000;
const MINUTE = 60_000;

export const DEPOT_TRIPS = 30;
export const SOUTH_TRIPS = 5;
export const GLOBEX_TRIPS = 3;
export const FIRST_TRIP = new Date('2026-03-01T08:00:00.000Z');

export const FT = {
  drivers: {
    anna: uuid(1, 'd1000000'),
    bruno: uuid(2, 'd1000000'),
    carla: uuid(3, 'd1000000'),
    dieter: uuid(4, 'd1000000'),
    greta: uuid(9, 'd1000000'),
  },
  /** depot trip i (0 = oldest) */
  depotTrip: (i: number) => uuid(i + 1, 'f1000000'),
  southTrip: (i: number) => uuid(i + 1, 'f2000000'),
  globexTrip: (i: number) => uuid(i + 1, 'f9000000'),
  metadata: { purpose: uuid(1, 'f5000000'), customer: uuid(2, 'f5000000'), globex: uuid(9, 'f5000000') },
  harshCount: 10,
  overspeedCount: 6,
};

/** The expected values of depot trip i. */
export function depotTripFacts(i: number) {
  const startedAt = new Date(FIRST_TRIP.getTime() + i * DAY);
  return {
    id: FT.depotTrip(i),
    startedAt,
    endedAt: new Date(startedAt.getTime() + (30 + i) * MINUTE),
    distanceM: (20 + i) * 1000,
    maxSpeedKmh: 90 + i,
    idleS: 60,
  };
}

function trip(
  id: string,
  device: string,
  vehicle: string | null,
  driver: string | null,
  i: number,
  base: Date,
) {
  const startedAt = new Date(base.getTime() + i * DAY);
  return {
    id,
    device_id: device,
    vehicle_id: vehicle,
    driver_id: driver,
    started_at: startedAt,
    ended_at: new Date(startedAt.getTime() + (30 + i) * MINUTE),
    start_latitude: 53.55 + i / 1000,
    start_longitude: 9.99,
    end_latitude: 53.6,
    end_longitude: 10.05 + i / 1000,
    start_address: `Hafenstrasse ${i + 1}, Hamburg`,
    end_address: null,
    distance_m: (20 + i) * 1000,
    max_speed_kmh: 90 + i,
    idle_s: 60,
    fuel_used_l: i % 2 === 0 ? 2 : null,
  };
}

const d = FT.drivers;
const created = (n: number) => new Date(Date.UTC(2026, 0, n));
const at = (iso: string) => new Date(iso);
/** Depot device 0; read when rows are built, since fixture.ts and this module import each other. */
const depotDevice = () => F.depotDevices[0]!;

/** Drivers, their groups, auxiliary devices and vehicle sessions. */
async function insertDrivers(knex: Knex): Promise<void> {
  await knex('fleet.drivers').insert([
    {
      id: d.anna,
      organization_id: F.orgA,
      label: 'Anna Becker',
      id_key: 'K-001',
      user_profile_id: F.bob.uid,
      user_contact_id: F.alice.uid,
      current_vehicle_id: F.vehicles.depot[0],
      default_vehicle_id: F.vehicles.depot[0],
      active: true,
      created_at: created(1),
      updated_at: created(20),
    },
    {
      id: d.bruno,
      organization_id: F.orgA,
      label: 'Bruno Keller',
      id_key: 'K-002',
      user_contact_id: F.alice.uid,
      default_vehicle_id: F.vehicles.depot[1],
      active: true,
      created_at: created(2),
      updated_at: created(10),
    },
    {
      id: d.carla,
      organization_id: F.orgA,
      label: 'Carla Diaz',
      id_key: null,
      current_vehicle_id: F.vehicles.south[0],
      active: false,
      created_at: created(3),
      updated_at: created(30),
    },
    {
      id: d.dieter,
      organization_id: F.orgA,
      label: 'Dieter Engel',
      id_key: 'K-004',
      active: true,
      created_at: created(4),
      updated_at: created(5),
    },
    {
      id: d.greta,
      organization_id: F.orgB,
      label: 'Greta Globex',
      id_key: 'G-001',
      user_profile_id: F.carol.uid,
      current_vehicle_id: F.vehicles.globex,
      active: true,
      created_at: created(1),
      updated_at: created(1),
    },
  ]);
  await knex('fleet.group_drivers').insert([
    { group_id: F.groups.depot, driver_id: d.anna },
    { group_id: F.groups.depot, driver_id: d.bruno },
    { group_id: F.groups.south, driver_id: d.carla },
    { group_id: F.groups.south, driver_id: d.dieter },
    { group_id: F.groups.globex, driver_id: d.greta },
  ]);
  await knex('fleet.driver_auxiliary_devices').insert([
    { id: uuid(1, 'da000000'), driver_id: d.anna, kind: 'BADGE', serial_number: 'BADGE-001' },
    { id: uuid(2, 'da000000'), driver_id: d.anna, kind: 'PHONE', mac_address_hash: 'mac-aaa' },
    { id: uuid(3, 'da000000'), driver_id: d.anna, kind: 'KEY_FOB', id_key: 'FOB-001' },
    { id: uuid(4, 'da000000'), driver_id: d.bruno, kind: 'BADGE', serial_number: 'BADGE-002' },
    { id: uuid(9, 'da000000'), driver_id: d.greta, kind: 'BADGE', serial_number: 'BADGE-G01' },
  ]);
  await knex('fleet.driver_vehicle_sessions').insert([
    {
      id: uuid(1, 'd6000000'),
      driver_id: d.anna,
      vehicle_id: F.vehicles.depot[0],
      started_at: new Date('2026-02-01T00:00:00Z'),
    },
    {
      id: uuid(2, 'd6000000'),
      driver_id: d.anna,
      vehicle_id: F.vehicles.south[0],
      started_at: new Date('2026-01-10T00:00:00Z'),
      ended_at: new Date('2026-01-20T00:00:00Z'),
    },
    {
      id: uuid(3, 'd6000000'),
      driver_id: d.bruno,
      vehicle_id: F.vehicles.depot[1],
      started_at: new Date('2026-01-05T00:00:00Z'),
      ended_at: new Date('2026-01-06T00:00:00Z'),
    },
    {
      id: uuid(9, 'd6000000'),
      driver_id: d.greta,
      vehicle_id: F.vehicles.globex,
      started_at: new Date('2026-01-05T00:00:00Z'),
    },
  ]);
}

/** Trips of depot device 0, with harsh events, overspeeds and metadata. */
async function insertDepotTrips(knex: Knex): Promise<void> {
  await knex('fleet.trips').insert([
    ...Array.from({ length: DEPOT_TRIPS }, (_, i) =>
      trip(FT.depotTrip(i), depotDevice(), F.vehicles.depot[0]!, d.anna, i, FIRST_TRIP),
    ),
    ...Array.from({ length: SOUTH_TRIPS }, (_, i) =>
      trip(FT.southTrip(i), F.southDevices[0]!, F.vehicles.south[0]!, d.carla, i, FIRST_TRIP),
    ),
    ...Array.from({ length: GLOBEX_TRIPS }, (_, i) =>
      trip(FT.globexTrip(i), F.globexDevices[0]!, F.vehicles.globex, d.greta, i, FIRST_TRIP),
    ),
  ]);
  const harshes = [];
  const overspeeds = [];
  for (let i = 0; i < DEPOT_TRIPS; i++) {
    const facts = depotTripFacts(i);
    if (i % 3 === 0) {
      harshes.push({
        id: uuid(i + 1, 'f3000000'),
        trip_id: facts.id,
        device_id: depotDevice(),
        occurred_at: new Date(facts.startedAt.getTime() + 10 * MINUTE),
        kind: (i / 3) % 2 === 0 ? 'BRAKING' : 'ACCELERATION',
        intensity_g: 0.45,
        speed_kmh: 50,
        latitude: 53.57,
        longitude: 10.01,
      });
    }
    if (i % 5 === 0) {
      overspeeds.push({
        id: uuid(i + 1, 'f4000000'),
        trip_id: facts.id,
        device_id: depotDevice(),
        started_at: new Date(facts.startedAt.getTime() + 15 * MINUTE),
        ended_at: new Date(facts.startedAt.getTime() + 16 * MINUTE),
        max_speed_kmh: 72,
        speed_limit_kmh: 50,
        distance_m: 1100,
        latitude: 53.58,
        longitude: 10.02,
      });
    }
  }
  await knex('fleet.trip_harshes').insert(harshes);
  await knex('fleet.trip_overspeeds').insert(overspeeds);
  await knex('fleet.trip_metadata').insert([
    { id: FT.metadata.purpose, trip_id: FT.depotTrip(0), key: 'purpose', value: 'BUSINESS' },
    { id: FT.metadata.customer, trip_id: FT.depotTrip(0), key: 'customer', value: 'ACME-42' },
    { id: FT.metadata.globex, trip_id: FT.globexTrip(0), key: 'purpose', value: 'PRIVATE' },
  ]);
}

/** Device history and reported fields. */
async function insertDeviceHistoryAndFields(knex: Knex): Promise<void> {
  await knex('fleet.device_history').insert([
    {
      id: uuid(1, 'f6000000'),
      device_id: depotDevice(),
      occurred_at: at('2025-12-31T10:00:00Z'),
      event: 'ONBOARDED',
    },
    {
      id: uuid(2, 'f6000000'),
      device_id: depotDevice(),
      occurred_at: at('2026-01-01T00:00:00Z'),
      event: 'INSTALLED',
      vehicle_id: F.vehicles.depot[0],
    },
    {
      id: uuid(3, 'f6000000'),
      device_id: depotDevice(),
      occurred_at: at('2026-03-01T07:59:00Z'),
      event: 'CONNECTED',
      reason: 'COLD_BOOT',
    },
    {
      id: uuid(4, 'f6000000'),
      device_id: depotDevice(),
      occurred_at: at('2026-03-01T09:00:00Z'),
      event: 'DISCONNECTED',
      reason: 'SLEEP',
    },
    {
      id: uuid(9, 'f6000000'),
      device_id: F.globexDevices[0],
      occurred_at: at('2026-01-01T00:00:00Z'),
      event: 'CONNECTED',
    },
  ]);
  await knex('fleet.device_fields').insert([
    {
      device_id: depotDevice(),
      name: 'BATTERY_VOLTAGE',
      unit: 'V',
      last_value: 12.6,
      last_recorded_at: at('2026-03-01T08:45:00Z'),
    },
    {
      device_id: depotDevice(),
      name: 'FUEL_LEVEL',
      unit: '%',
      last_value: 55,
      last_recorded_at: at('2026-03-01T08:45:00Z'),
    },
    {
      device_id: depotDevice(),
      name: 'ODOMETER',
      unit: 'km',
      last_value: 10450,
      last_recorded_at: at('2026-03-01T08:45:00Z'),
    },
  ]);
}

/** Readings and battery annotations. */
async function insertReadingsAndBattery(knex: Knex): Promise<void> {
  const readings = [];
  for (let i = 0; i < 10; i++) {
    readings.push({
      id: uuid(i + 1, 'f7000000'),
      device_id: depotDevice(),
      field: i % 2 === 0 ? 'FUEL_LEVEL' : 'ODOMETER',
      recorded_at: new Date(at('2026-03-01T08:00:00Z').getTime() + i * 5 * MINUTE),
      value: i % 2 === 0 ? 60 - i : 10_400 + i * 5,
      latitude: i < 5 ? 53.55 : null,
      longitude: i < 5 ? 9.99 : null,
    });
  }
  await knex('fleet.readings').insert(readings);
  const voltages = [12.6, 12.4, 11.9, 11.5, 14.1, 10.2];
  const states = ['OK', 'OK', 'LOW', 'CRITICAL', 'CHARGING', 'CRANKING'];
  await knex('fleet.battery_annotations').insert(
    voltages.map((voltage, i) => ({
      id: uuid(i + 1, 'f8000000'),
      device_id: depotDevice(),
      recorded_at: new Date(at('2026-03-01T00:00:00Z').getTime() + i * 60 * MINUTE),
      voltage,
      state: states[i],
    })),
  );
}

/** The depot device's last position and its vehicle's details. */
async function updateDepotPositions(knex: Knex): Promise<void> {
  await knex('fleet.devices')
    .where('id', depotDevice())
    .update({ last_latitude: 53.6, last_longitude: 10.05, last_position_at: at('2026-03-30T09:00:00Z') });
  await knex('fleet.vehicles')
    .where('id', F.vehicles.depot[0])
    .update({
      label: 'Van 1',
      vehicle_type: 'VAN',
      registration_country: 'DE',
      fuel_tank_capacity_l: 80,
      odometer_updated_at: at('2026-03-30T09:00:00Z'),
    });
}

export async function loadTripsFixture(knex: Knex): Promise<void> {
  await insertDrivers(knex);
  await insertDepotTrips(knex);
  await insertDeviceHistoryAndFields(knex);
  await insertReadingsAndBattery(knex);
  await updateDepotPositions(knex);
}
