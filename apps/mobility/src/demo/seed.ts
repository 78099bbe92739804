/**
 * Demo transactions: months of refills and charges for every vehicle of the demo fleet that has
 * trips (read through fleet_contract), consistent with them: the tank or battery level falls with
 * each trip (trip fuel when known, else a per-vehicle rate) and the vehicle refills at the end of
 * a trip, at that place, a few minutes after arriving, before the next trip. Odometers follow the
 * trips' distances; prices follow a weekly price per product with small noise.
 *
 * A known share of frauds is planted (column planted_fraud = the rule code), about 1 in 15
 * transactions, cycling through every rule; the planted rows are what the recall/precision test
 * reads. Deterministic (seeded PRNG), relative to the trips (themselves relative to ctx.now).
 */
import type { Knex } from 'knex';
import type { DemoDataContext } from '@fleetgraph/subgraph-kit';
import { detectTransactions } from '../domain/detection/engine';
import { RULE_CODES, THRESHOLDS } from '../domain/detection/rules';

export const isSeeded = async (knex: Knex) => (await knex('mobility.transactions').first('id')) !== undefined;

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    // mulberry32
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  between(a: number, b: number) {
    return a + (b - a) * this.next();
  }
}

/** Every rule is planted in turn. */
const PLANTED = RULE_CODES;
export const PLANT_EVERY = 15;

const BASE_PRICE: Record<string, number> = { DIESEL: 1.68, GASOLINE: 1.79, ELECTRICITY: 0.42, LPG: 0.95 };
const BRANDS = ['Shell', 'TotalEnergies', 'Aral', 'Esso', 'BP', 'Ionity', 'Fastned'];
const MINUTE = 60_000;

interface Trip {
  vehicle_id: string;
  device_id: string | null;
  driver_id: string | null;
  started_at: Date;
  ended_at: Date;
  end_latitude: number | null;
  end_longitude: number | null;
  distance_m: number | null;
  fuel_used_l: number | null;
}

/** The product a vehicle of this fleet fuel type normally takes. */
function productOf(fuelType: string | null): { category: string; energy: string; unit: string } | null {
  switch (fuelType) {
    case 'DIESEL':
      return { category: 'DIESEL', energy: 'DIESEL', unit: 'L' };
    case 'GASOLINE':
    case 'HYBRID':
    case 'PLUGIN_HYBRID':
      return { category: 'GASOLINE', energy: 'GASOLINE', unit: 'L' };
    case 'ELECTRIC':
      return { category: 'ELECTRICITY', energy: 'ELECTRIC', unit: 'KWH' };
    case 'LPG':
      return { category: 'LPG', energy: 'LPG', unit: 'L' };
    default:
      return null;
  }
}

const postalOf = (lat: number, lon: number) =>
  `${String(Math.abs(Math.floor(lat)) % 10)}${String(Math.abs(Math.floor(lon)) % 10)}${String(Math.abs(Math.floor(lat * 10)) % 10)}${String(Math.abs(Math.floor(lon * 10)) % 10)}0`;

const weekIndex = (d: Date) => Math.floor(d.getTime() / (7 * 86_400_000));

function weeklyPrice(category: string, area: string, week: number): number {
  const h = Math.sin(week * 12.9898 + area.charCodeAt(0) * 78.233 + category.length) * 43758.5453;
  return (BASE_PRICE[category] ?? 1.5) * (1 + (h - Math.floor(h) - 0.5) * 0.06);
}

export async function seedDemo(knex: Knex, context: DemoDataContext): Promise<Record<string, number>> {
  const vehicles = await knex('fleet_contract.vehicles_v1').select(
    'id',
    'organization_id',
    'vin',
    'plate',
    'vehicle_type',
    'fuel_type',
    'fuel_tank_capacity_l',
    'battery_capacity_kwh',
    'odometer_km',
  );
  const groups = new Map<string, string>();
  for (const g of await knex('fleet_contract.group_vehicles_v1')
    .select('group_id', 'vehicle_id')
    .orderBy('group_id'))
    if (!groups.has(g.vehicle_id)) groups.set(g.vehicle_id, g.group_id);
  const drivers = new Map<string, string>(
    (await knex('fleet_contract.drivers_v1').select('id', 'label')).map(
      (d: { id: string; label: string }) => [d.id, d.label],
    ),
  );
  const rng = new Rng(20261123);
  const rows: Record<string, unknown>[] = [];
  let plantCursor = 0;
  for (const v of vehicles) {
    const product = productOf(v.fuel_type);
    if (!product) continue;
    const trips: Trip[] = await knex('fleet_contract.trips_v1')
      .select(
        'vehicle_id',
        'device_id',
        'driver_id',
        'started_at',
        'ended_at',
        'end_latitude',
        'end_longitude',
        'distance_m',
        'fuel_used_l',
      )
      .where('vehicle_id', v.id)
      .whereNotNull('end_latitude')
      .orderBy('started_at');
    if (trips.length < 3) continue;
    const electric = product.energy === 'ELECTRIC';
    const capacity = electric
      ? (v.battery_capacity_kwh ?? THRESHOLDS.defaultBatteryKwh[v.vehicle_type] ?? 75)
      : (v.fuel_tank_capacity_l ?? THRESHOLDS.defaultTankL[v.vehicle_type] ?? 70);
    const rate = electric ? rng.between(0.16, 0.24) : rng.between(0.07, 0.12); // per km
    const totalKm = trips.reduce((s, t) => s + (t.distance_m ?? 0) / 1000, 0);
    let odometer = Math.max(0, Math.round((v.odometer_km ?? totalKm + 5000) - totalKm));
    let level = capacity * rng.between(0.5, 0.9);
    // Drivers refill when the level falls under their habit (30-55 % of the tank or battery).
    const refillAt = rng.between(0.3, 0.55);
    const chain: Record<string, unknown>[] = [];
    for (let i = 0; i < trips.length; i++) {
      const trip = trips[i]!;
      const used = electric
        ? ((trip.distance_m ?? 0) / 1000) * rate
        : (trip.fuel_used_l ?? ((trip.distance_m ?? 0) / 1000) * rate);
      level -= used;
      odometer += (trip.distance_m ?? 0) / 1000;
      const next = trips[i + 1];
      const nextUse = next ? ((next.distance_m ?? 0) / 1000) * (electric ? rate : 0.13) : 0;
      if (level - nextUse > capacity * refillAt || !next) continue;
      // Refill at the end of this trip, before the next one starts.
      const room = next.started_at.getTime() - trip.ended_at.getTime();
      if (room < 2 * MINUTE) continue;
      const at = new Date(trip.ended_at.getTime() + Math.min(rng.between(3, 15) * MINUTE, room / 2));
      const quantity = Math.round(Math.min(capacity, capacity - Math.max(level, 0)) * 100) / 100;
      level = capacity;
      const lat = trip.end_latitude! + rng.between(-0.0015, 0.0015);
      const lon = trip.end_longitude! + rng.between(-0.0015, 0.0015);
      const postal = postalOf(lat, lon);
      const price =
        weeklyPrice(product.category, postal.slice(0, 2), weekIndex(at)) * rng.between(0.985, 1.015);
      chain.push(
        txRow(v, product, {
          at,
          quantity,
          odometer: Math.round(odometer),
          lat,
          lon,
          postal,
          price,
          trip,
          driverLabel: trip.driver_id ? (drivers.get(trip.driver_id) ?? null) : null,
          groupId: groups.get(v.id) ?? null,
          brand: BRANDS[Math.floor(rng.next() * BRANDS.length)]!,
          externalId: `DEMO-${v.id}-${chain.length + 1}`,
        }),
      );
    }
    // Plant frauds: one in PLANT_EVERY, never the first 3 of a vehicle, never two in a row.
    let lastPlanted = -10;
    for (let i = 3; i < chain.length; i++) {
      if (rng.next() >= 1 / PLANT_EVERY || i - lastPlanted < 3) continue;
      const code = PLANTED[plantCursor % PLANTED.length]!;
      const row = chain[i]!;
      const previous = chain[i - 1]!;
      if (plant(code, row, previous, v, capacity, electric, rng, chain, i)) {
        plantCursor++;
        lastPlanted = i;
      }
    }
    rows.push(...chain);
  }
  // A price outlier is only detectable against a sample: unplant those without one.
  const key = (r: Record<string, any>) =>
    [
      r.organization_id,
      r.product_category,
      String(r.station_postal_code).slice(0, 2),
      weekIndex(new Date(r.transacted_at.getTime() + 3 * 86_400_000)),
      r.currency,
    ].join('|');
  const sample = new Map<string, number>();
  for (const r of rows) sample.set(key(r), (sample.get(key(r)) ?? 0) + 1);
  for (const r of rows as Array<Record<string, any>>) {
    if (
      r.planted_fraud === 'UNIT_PRICE_OUTLIER' &&
      (sample.get(key(r)) ?? 0) < THRESHOLDS.priceMinSample + 2
    ) {
      r.gross_unit_price = r.honest_price;
      r.net_unit_price = Math.round((r.gross_unit_price / 1.2) * 1000) / 1000;
      r.gross_total = Math.round(r.gross_unit_price * r.quantity * 100) / 100;
      r.net_total = Math.round(r.net_unit_price * r.quantity * 100) / 100;
      r.planted_fraud = null;
      r.notes = null;
    }
  }
  for (const r of rows) delete r.honest_price;
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const inserted = await knex('mobility.transactions')
      .insert(rows.slice(i, i + 1000))
      .returning('id');
    ids.push(...inserted.map((r: { id: string }) => r.id));
  }
  const detection = await detectTransactions(knex, ids, { now: context.now });
  return {
    transactions: rows.length,
    planted: rows.filter((r) => r.planted_fraud).length,
    anomalies: detection.detected,
    pendingChecks: detection.pending,
  };
}

function txRow(
  v: Record<string, any>,
  product: { category: string; energy: string; unit: string },
  x: {
    at: Date;
    quantity: number;
    odometer: number;
    lat: number;
    lon: number;
    postal: string;
    price: number;
    trip: Trip;
    driverLabel: string | null;
    groupId: string | null;
    brand: string;
    externalId: string;
  },
): Record<string, unknown> {
  const gross = Math.round(x.price * 1000) / 1000;
  const net = Math.round((gross / 1.2) * 1000) / 1000;
  return {
    organization_id: v.organization_id,
    transacted_at: x.at,
    quantity: x.quantity,
    quantity_unit: product.unit,
    odometer_km: x.odometer,
    energy_type: product.energy,
    product_category: product.category,
    transaction_type: product.energy === 'ELECTRIC' ? 'CHARGE' : 'REFILL',
    product_label:
      product.energy === 'ELECTRIC' ? 'DC charge' : product.category === 'DIESEL' ? 'Diesel B7' : 'Super E10',
    vehicle_plate: v.plate,
    vehicle_vin: v.vin,
    device_imei: x.trip.device_id,
    driver_label: x.driverLabel,
    net_unit_price: net,
    gross_unit_price: gross,
    net_total: Math.round(net * x.quantity * 100) / 100,
    gross_total: Math.round(gross * x.quantity * 100) / 100,
    currency: 'EUR',
    station_name: `${x.brand} ${x.postal}`,
    station_brand: x.brand,
    station_city: `Area ${x.postal.slice(0, 2)}`,
    station_postal_code: x.postal,
    station_latitude: Math.round(x.lat * 1e6) / 1e6,
    station_longitude: Math.round(x.lon * 1e6) / 1e6,
    source: product.energy === 'ELECTRIC' ? 'CHARGE_POINT_OPERATOR' : 'FUEL_CARD',
    external_source: 'DEMO_CARD',
    external_id: x.externalId,
    notes: null,
    vehicle_id: v.id,
    device_id: x.trip.device_id,
    driver_id: x.trip.driver_id,
    group_id: x.groupId,
    planted_fraud: null,
  };
}

/** Turns an honest row into a fraud of the given rule; false when this row cannot carry it. */
function plant(
  code: (typeof PLANTED)[number],
  row: Record<string, any>,
  previous: Record<string, any>,
  v: Record<string, any>,
  capacity: number,
  electric: boolean,
  rng: Rng,
  chain: Record<string, unknown>[],
  index: number,
): boolean {
  const reprice = () => {
    row.net_total = Math.round(row.net_unit_price * row.quantity * 100) / 100;
    row.gross_total = Math.round(row.gross_unit_price * row.quantity * 100) / 100;
  };
  switch (code) {
    case 'QUANTITY_ABOVE_CAPACITY':
      row.quantity = Math.round(capacity * rng.between(1.3, 1.6) * 100) / 100;
      reprice();
      row.notes = 'card used to fill a second vehicle or a jerrycan';
      break;
    case 'VEHICLE_NOT_AT_STATION': {
      row.station_latitude = Math.round((row.station_latitude + rng.between(0.4, 0.8)) * 1e6) / 1e6;
      row.station_longitude = Math.round((row.station_longitude + rng.between(0.4, 0.8)) * 1e6) / 1e6;
      row.notes = 'card used while the vehicle was elsewhere';
      break;
    }
    case 'WRONG_ENERGY':
      if (electric) {
        Object.assign(row, {
          energy_type: 'DIESEL',
          product_category: 'DIESEL',
          quantity_unit: 'L',
          transaction_type: 'REFILL',
          product_label: 'Diesel B7',
          gross_unit_price: 1.7,
          net_unit_price: 1.417,
        });
        row.quantity = Math.round(rng.between(30, 50) * 100) / 100;
      } else if (v.fuel_type === 'DIESEL') {
        Object.assign(row, {
          energy_type: 'GASOLINE',
          product_category: 'GASOLINE',
          product_label: 'Super E10',
        });
      } else if (v.fuel_type === 'PLUGIN_HYBRID' || v.fuel_type === 'HYBRID') {
        Object.assign(row, { energy_type: 'LPG', product_category: 'LPG', product_label: 'Autogas' });
      } else {
        Object.assign(row, { energy_type: 'DIESEL', product_category: 'DIESEL', product_label: 'Diesel B7' });
      }
      row.station_postal_code = `X${row.station_postal_code.slice(1)}`; // keep the price sample of its product clean
      reprice();
      row.notes = 'product not for this vehicle';
      break;
    case 'ODOMETER_BACKWARDS':
      if (previous.odometer_km == null) return false;
      row.odometer_km = Math.max(0, Number(previous.odometer_km) - Math.round(rng.between(300, 3000)));
      row.notes = 'odometer typed lower than at the previous fill';
      break;
    case 'IMPOSSIBLE_DISTANCE': {
      if (previous.odometer_km == null) return false;
      const hours = (row.transacted_at.getTime() - previous.transacted_at.getTime()) / 3_600_000;
      row.odometer_km = Number(previous.odometer_km) + Math.round(Math.max(2000, hours * 300));
      row.notes = 'odometer typed far above the distance the vehicle could drive';
      break;
    }
    case 'REFILL_TOO_SOON': {
      // An extra purchase shortly after this honest one, same station: the tank was just full.
      const extra = { ...row };
      extra.transacted_at = new Date(row.transacted_at.getTime() + rng.between(1, 4) * MINUTE);
      extra.quantity = Math.round(capacity * rng.between(0.6, 0.9) * 100) / 100;
      extra.external_id = `${row.external_id}-X`;
      extra.net_total = Math.round(extra.net_unit_price * extra.quantity * 100) / 100;
      extra.gross_total = Math.round(extra.gross_unit_price * extra.quantity * 100) / 100;
      extra.planted_fraud = code;
      extra.notes = 'second fill right after a full tank';
      chain.splice(index + 1, 0, extra);
      return true;
    }
    case 'UNIT_PRICE_OUTLIER':
      row.honest_price = row.gross_unit_price;
      row.gross_unit_price = Math.round(row.gross_unit_price * rng.between(1.35, 1.5) * 1000) / 1000;
      row.net_unit_price = Math.round((row.gross_unit_price / 1.2) * 1000) / 1000;
      reprice();
      row.notes = 'price far above the local price of the week';
      break;
  }
  row.planted_fraud = code;
  return true;
}
