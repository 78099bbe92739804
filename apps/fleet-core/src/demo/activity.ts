/**
 * Streaming generation of what devices record: trips (with harsh events, overspeeds and some
 * metadata), device history, reported fields, readings, battery annotations and the last position.
 *
 * Built for 10M trips: nothing is held in memory beyond one batch per table. Rows go to column
 * buffers and are written `BATCH_ROWS` at a time with one statement per batch,
 * `insert into t (...) select * from unnest($1::uuid[], $2::text[], ...)` (one parameter per
 * column, so no 65535-parameter limit and little parsing). Ids are sequential per table (a table
 * tag and a counter), so primary-key inserts append instead of splitting random index pages.
 *
 * Trips are generated backwards from the device's last activity: each trip ends where the next
 * one starts, around the depot's city (see geo.ts), with overnight breaks, and stops at the
 * device's first connection. Deterministic: one PRNG per device, seeded by its IMEI.
 */
import type { Knex } from 'knex';
import { Rng } from './ids';
import { cityCentre, offset, roadTripTo, streetAddress } from './geo';

export interface DeviceActivity {
  deviceId: string;
  vehicleId: string;
  driverId: string | null;
  city: string;
  fuelType: string;
  firstConnectionAt: number;
  lastActivityAt: number;
  odometerKm: number;
}

export interface ActivityCounts {
  trips: number;
  tripHarshes: number;
  tripOverspeeds: number;
  tripMetadata: number;
  deviceHistory: number;
  deviceFields: number;
  readings: number;
  batteryAnnotations: number;
}

export interface ActivityOptions {
  tripsPerDevice: number;
  /** Called after each written batch of trips with the number of trips written. */
  onTrips?: (written: number) => void;
}

export const BATCH_ROWS = 5000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Column = readonly [name: string, type: string];

class ColumnBuffer {
  private columns: unknown[][];
  length = 0;
  written = 0;
  constructor(
    private readonly table: string,
    private readonly spec: readonly Column[],
    private readonly conflict = '',
  ) {
    this.columns = spec.map(() => []);
  }
  push(...values: unknown[]): void {
    for (let i = 0; i < values.length; i++) this.columns[i]!.push(values[i]);
    this.length += 1;
  }
  async flush(db: Knex | Knex.Transaction): Promise<number> {
    if (this.length === 0) return 0;
    const names = this.spec.map(([name]) => name).join(', ');
    // Timestamps travel as epoch milliseconds (float8): much cheaper to serialize than Dates.
    const unnest = this.spec.map(([, type]) => `?::${type === 'timestamptz' ? 'float8' : type}[]`).join(', ');
    const aliases = this.spec.map((_, i) => `c${i}`).join(', ');
    const select = this.spec
      .map(([, type], i) => (type === 'timestamptz' ? `to_timestamp(c${i} / 1000.0)` : `c${i}`))
      .join(', ');
    await db.raw(
      `insert into ${this.table} (${names}) select ${select} from unnest(${unnest}) as u(${aliases}) ${this.conflict}`,
      this.columns as Knex.RawBinding[],
    );
    const n = this.length;
    this.written += n;
    this.columns = this.spec.map(() => []);
    this.length = 0;
    return n;
  }
}

/** Sequential uuid-shaped ids: an 8-hex-digit table tag and a counter. */
function sequence(tag: string) {
  let n = 0;
  return () => {
    n += 1;
    const hex = n.toString(16).padStart(24, '0');
    return `${tag}-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12)}`;
  };
}

const ELECTRIC = new Set(['ELECTRIC']);
const HARSH_KINDS = [
  ['BRAKING', 45],
  ['ACCELERATION', 30],
  ['CORNERING', 23],
  ['IMPACT', 2],
] as const;

/** One column buffer per table the activity fills. */
function activityBuffers() {
  const trips = new ColumnBuffer('fleet.trips', [
    ['id', 'uuid'],
    ['device_id', 'text'],
    ['vehicle_id', 'uuid'],
    ['driver_id', 'uuid'],
    ['started_at', 'timestamptz'],
    ['ended_at', 'timestamptz'],
    ['start_latitude', 'float8'],
    ['start_longitude', 'float8'],
    ['end_latitude', 'float8'],
    ['end_longitude', 'float8'],
    ['distance_m', 'int4'],
    ['max_speed_kmh', 'float4'],
    ['idle_s', 'int4'],
    ['fuel_used_l', 'float4'],
    ['start_address', 'text'],
    ['end_address', 'text'],
  ]);
  const harshes = new ColumnBuffer('fleet.trip_harshes', [
    ['id', 'uuid'],
    ['trip_id', 'uuid'],
    ['device_id', 'text'],
    ['occurred_at', 'timestamptz'],
    ['kind', 'text'],
    ['intensity_g', 'float4'],
    ['speed_kmh', 'float4'],
    ['latitude', 'float8'],
    ['longitude', 'float8'],
  ]);
  const overspeeds = new ColumnBuffer('fleet.trip_overspeeds', [
    ['id', 'uuid'],
    ['trip_id', 'uuid'],
    ['device_id', 'text'],
    ['started_at', 'timestamptz'],
    ['ended_at', 'timestamptz'],
    ['max_speed_kmh', 'float4'],
    ['speed_limit_kmh', 'float4'],
    ['distance_m', 'int4'],
    ['latitude', 'float8'],
    ['longitude', 'float8'],
  ]);
  const metadata = new ColumnBuffer('fleet.trip_metadata', [
    ['id', 'uuid'],
    ['trip_id', 'uuid'],
    ['key', 'text'],
    ['value', 'text'],
    ['created_at', 'timestamptz'],
    ['updated_at', 'timestamptz'],
  ]);
  const history = new ColumnBuffer('fleet.device_history', [
    ['id', 'uuid'],
    ['device_id', 'text'],
    ['occurred_at', 'timestamptz'],
    ['event', 'text'],
    ['reason', 'text'],
    ['vehicle_id', 'uuid'],
  ]);
  const fields = new ColumnBuffer('fleet.device_fields', [
    ['device_id', 'text'],
    ['name', 'text'],
    ['unit', 'text'],
    ['last_value', 'float8'],
    ['last_recorded_at', 'timestamptz'],
  ]);
  const readings = new ColumnBuffer('fleet.readings', [
    ['id', 'uuid'],
    ['device_id', 'text'],
    ['field', 'text'],
    ['recorded_at', 'timestamptz'],
    ['value', 'float8'],
    ['latitude', 'float8'],
    ['longitude', 'float8'],
  ]);
  const battery = new ColumnBuffer('fleet.battery_annotations', [
    ['id', 'uuid'],
    ['device_id', 'text'],
    ['recorded_at', 'timestamptz'],
    ['voltage', 'float4'],
    ['state', 'text'],
  ]);
  return { trips, harshes, overspeeds, metadata, history, fields, readings, battery };
}

type Buffers = ReturnType<typeof activityBuffers>;

/** Sequential ids per table. */
function activityIds() {
  return {
    trip: sequence('7a1e0000'),
    harsh: sequence('7a1e0001'),
    overspeed: sequence('7a1e0002'),
    metadatum: sequence('7a1e0003'),
    history: sequence('7a1e0004'),
    reading: sequence('7a1e0005'),
    battery: sequence('7a1e0006'),
  };
}

type Ids = ReturnType<typeof activityIds>;

/** Each device's last position, written to fleet.devices in batches (one statement per batch). */
function lastPositions(db: Knex | Knex.Transaction) {
  let batch: { ids: string[]; lat: number[]; lon: number[]; at: Date[] } = {
    ids: [],
    lat: [],
    lon: [],
    at: [],
  };
  return {
    push(deviceId: string, [lat, lon]: [number, number], at: Date) {
      batch.ids.push(deviceId);
      batch.lat.push(lat);
      batch.lon.push(lon);
      batch.at.push(at);
    },
    get length() {
      return batch.ids.length;
    },
    async flush() {
      if (batch.ids.length === 0) return;
      await db.raw(
        `update fleet.devices d set last_latitude = p.lat, last_longitude = p.lon, last_position_at = p.at
           from unnest(?::text[], ?::float8[], ?::float8[], ?::timestamptz[]) as p(id, lat, lon, at)
          where d.id = p.id`,
        [batch.ids, batch.lat, batch.lon, batch.at],
      );
      batch = { ids: [], lat: [], lon: [], at: [] };
    },
  };
}

/** What one device's generation needs: its PRNG, where it drives, and where rows go. */
interface DeviceRun {
  device: DeviceActivity;
  rng: Rng;
  centre: ReturnType<typeof cityCentre>;
  electric: boolean;
  lastPosition: [number, number];
  buffers: Buffers;
  ids: Ids;
}

type Trip = ReturnType<typeof roadTripTo>;

/** A harsh event somewhere along 12 % of trips. */
function maybeHarsh(run: DeviceRun, tripId: string, trip: Trip, startAt: number, endAt: number): void {
  const { rng, device } = run;
  if (!rng.chance(0.12)) return;
  const f = 0.1 + rng.next() * 0.8;
  const at = along(trip, f);
  const kind = rng.weighted(HARSH_KINDS);
  run.buffers.harshes.push(
    run.ids.harsh(),
    tripId,
    device.deviceId,
    Math.round(startAt + (endAt - startAt) * f),
    kind,
    Math.round((kind === 'IMPACT' ? 1.5 + rng.next() * 2 : 0.32 + rng.next() * 0.35) * 100) / 100,
    Math.round(trip.maxSpeedKmh * (0.3 + rng.next() * 0.6)),
    at[0],
    at[1],
  );
}

/** An overspeed on 10 % of the trips fast enough to break a limit. */
function maybeOverspeed(run: DeviceRun, tripId: string, trip: Trip, startAt: number, endAt: number): void {
  const { rng, device } = run;
  if (!(trip.maxSpeedKmh > 58 && rng.chance(0.1))) return;
  const limit = trip.maxSpeedKmh > 128 ? 120 : trip.maxSpeedKmh > 88 ? 80 : 50;
  const f = 0.2 + rng.next() * 0.6;
  const oStart = Math.round(startAt + (endAt - startAt) * f);
  const seconds = rng.int(15, 180);
  const at = along(trip, f);
  run.buffers.overspeeds.push(
    run.ids.overspeed(),
    tripId,
    device.deviceId,
    oStart,
    oStart + seconds * 1000,
    trip.maxSpeedKmh,
    limit,
    Math.round(((limit + trip.maxSpeedKmh) / 2 / 3.6) * seconds),
    at[0],
    at[1],
  );
}

/** The point a fraction `f` of the way along a trip (straight line, to the micro-degree). */
function along(trip: Trip, f: number): [number, number] {
  return [
    Math.round((trip.start[0] + (trip.end[0] - trip.start[0]) * f) * 1e6) / 1e6,
    Math.round((trip.start[1] + (trip.end[1] - trip.start[1]) * f) * 1e6) / 1e6,
  ];
}

/**
 * Trips, newest first, each ending where the following one starts, back to the device's first
 * connection; answers the km driven. `flushFull` writes the batches that are full.
 */
async function generateTrips(
  run: DeviceRun,
  tripsPerDevice: number,
  flushFull: () => Promise<void>,
): Promise<number> {
  const { device, rng, centre, electric, buffers, ids } = run;
  let end: [number, number] = run.lastPosition;
  let endAt = device.lastActivityAt - rng.int(1, 30) * MINUTE;
  let totalKm = 0;
  for (let k = 0; k < tripsPerDevice; k++) {
    const trip = roadTripTo(rng, centre, end);
    const startAt = endAt - trip.durationS * 1000;
    if (startAt < device.firstConnectionAt) break;
    const tripId = ids.trip();
    const fuel = electric
      ? null
      : Math.round((trip.distanceM / 1000) * (0.07 + rng.next() * 0.06) * 100) / 100;
    buffers.trips.push(
      tripId,
      device.deviceId,
      device.vehicleId,
      device.driverId,
      startAt,
      endAt,
      trip.start[0],
      trip.start[1],
      trip.end[0],
      trip.end[1],
      trip.distanceM,
      trip.maxSpeedKmh,
      trip.idleS,
      fuel,
      streetAddress(device.city, trip.start),
      streetAddress(device.city, trip.end),
    );
    totalKm += trip.distanceM / 1000;
    maybeHarsh(run, tripId, trip, startAt, endAt);
    maybeOverspeed(run, tripId, trip, startAt, endAt);
    if (rng.chance(0.02)) {
      buffers.metadata.push(
        ids.metadatum(),
        tripId,
        'purpose',
        rng.chance(0.85) ? 'BUSINESS' : 'PRIVATE',
        endAt,
        endAt,
      );
    }
    end = trip.start;
    // Breaks: a short stop between deliveries, or the night.
    const gap = rng.chance(0.18) ? rng.int(10 * 60, 15 * 60) : rng.int(8, 150);
    endAt = startAt - gap * MINUTE;
    if (buffers.trips.length >= BATCH_ROWS) await flushFull();
  }
  return totalKm;
}

/** History: onboarding and installation at the first connection, then the last session. */
function pushHistory({ device, rng, buffers, ids }: DeviceRun): void {
  const first = device.firstConnectionAt;
  const history = buffers.history;
  history.push(ids.history(), device.deviceId, first - HOUR, 'ONBOARDED', null, null);
  history.push(ids.history(), device.deviceId, first, 'INSTALLED', null, device.vehicleId);
  history.push(ids.history(), device.deviceId, first + 2 * MINUTE, 'CONNECTED', 'COLD_BOOT', null);
  if (rng.chance(0.3)) {
    history.push(
      ids.history(),
      device.deviceId,
      first + rng.int(20, 200) * 24 * HOUR,
      'FIRMWARE_UPDATED',
      `4.${rng.int(0, 9)}.${rng.int(0, 20)}`,
      null,
    );
  }
  history.push(
    ids.history(),
    device.deviceId,
    device.lastActivityAt - 3 * HOUR,
    'CONNECTED',
    'WAKE_UP',
    null,
  );
}

/** Fields and readings: two readings per field over the last hour of activity. */
function pushFieldsAndReadings(run: DeviceRun, totalKm: number, tripsPerDevice: number): void {
  const { device, rng, electric, lastPosition, buffers, ids } = run;
  const odometer = device.odometerKm;
  const level = rng.int(15, 95);
  const voltage = Math.round((12.2 + rng.next() * 0.6) * 100) / 100;
  const reported: Array<[string, string, number, number]> = [
    ['ODOMETER', 'km', odometer, odometer - Math.max(1, Math.round(totalKm / Math.max(1, tripsPerDevice)))],
    [electric ? 'STATE_OF_CHARGE' : 'FUEL_LEVEL', '%', level, Math.min(100, level + rng.int(1, 6))],
    ['BATTERY_VOLTAGE', 'V', voltage, Math.round((voltage + 1.6) * 100) / 100],
    ['SPEED', 'km/h', 0, rng.int(20, 70)],
  ];
  for (const [name, unit, latest, earlier] of reported) {
    buffers.fields.push(device.deviceId, name, unit, latest, device.lastActivityAt);
    const earlierAt = device.lastActivityAt - rng.int(20, 60) * MINUTE;
    buffers.readings.push(ids.reading(), device.deviceId, name, earlierAt, earlier, null, null);
    buffers.readings.push(
      ids.reading(),
      device.deviceId,
      name,
      device.lastActivityAt,
      latest,
      lastPosition[0],
      lastPosition[1],
    );
  }
}

/** Battery annotations every 3 hours over the last day. */
function pushBatteryAnnotations({ device, rng, buffers, ids }: DeviceRun): void {
  for (let b = 7; b >= 0; b--) {
    const running = rng.chance(0.25);
    const v = running
      ? Math.round((13.8 + rng.next() * 0.6) * 100) / 100
      : Math.round((11.4 + rng.next() * 1.4) * 100) / 100;
    const state = running ? 'CHARGING' : v < 11.8 ? 'CRITICAL' : v < 12.2 ? 'LOW' : 'OK';
    buffers.battery.push(ids.battery(), device.deviceId, device.lastActivityAt - b * 3 * HOUR, v, state);
  }
}

export async function seedActivity(
  db: Knex | Knex.Transaction,
  devices: readonly DeviceActivity[],
  options: ActivityOptions,
): Promise<ActivityCounts> {
  const buffers = activityBuffers();
  const positions = lastPositions(db);
  const ids = activityIds();
  const { trips, harshes, overspeeds, metadata } = buffers;
  const all = Object.values(buffers);
  const flush = async (buffer: ColumnBuffer) => {
    const n = await buffer.flush(db);
    if (buffer === trips) options.onTrips?.(n);
  };
  const flushFull = async () => {
    // Harshes, overspeeds and metadata point at trips: their trips are written first.
    const dependentsFull = [harshes, overspeeds, metadata].some((b) => b.length >= BATCH_ROWS);
    for (const buffer of all)
      if (buffer.length >= BATCH_ROWS || (buffer === trips && dependentsFull)) await flush(buffer);
    if (positions.length >= BATCH_ROWS) await positions.flush();
  };

  for (const device of devices) {
    const rng = new Rng(`activity:${device.deviceId}`);
    const centre = cityCentre(device.city);
    const lastPosition = offset(centre, rng.next() * 8, rng.next() * 2 * Math.PI);
    positions.push(device.deviceId, lastPosition, new Date(device.lastActivityAt));
    const run: DeviceRun = {
      device,
      rng,
      centre,
      electric: ELECTRIC.has(device.fuelType),
      lastPosition,
      buffers,
      ids,
    };
    const totalKm = await generateTrips(run, options.tripsPerDevice, flushFull);
    pushHistory(run);
    pushFieldsAndReadings(run, totalKm, options.tripsPerDevice);
    pushBatteryAnnotations(run);
    await flushFull();
  }
  for (const buffer of all) await flush(buffer);
  await positions.flush();
  return {
    trips: trips.written,
    tripHarshes: harshes.written,
    tripOverspeeds: overspeeds.written,
    tripMetadata: metadata.written,
    deviceHistory: buffers.history.written,
    deviceFields: buffers.fields.written,
    readings: buffers.readings.written,
    batteryAnnotations: buffers.battery.written,
  };
}
