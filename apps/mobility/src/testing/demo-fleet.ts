/**
 * Test-only: a larger fleet on top of fleet-core's fixture (tests may write the owner's rows):
 * extra Acme vehicles in North Depot, each with four trips a day over 120 days, so the demo seed
 * has months of refills and enough prices per product, area and week.
 */
import type { Knex } from 'knex';

const uuid = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const FUELS = [
  'DIESEL',
  'DIESEL',
  'GASOLINE',
  'ELECTRIC',
  'DIESEL',
  'PLUGIN_HYBRID',
  'GASOLINE',
  'DIESEL',
  'ELECTRIC',
  'HYBRID',
];

export async function loadDemoFleet(knex: Knex, F: any, now: Date, vehicles = 24, days = 120): Promise<void> {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows = [];
  const groupRows = [];
  for (let k = 0; k < vehicles; k++) {
    const fuel = FUELS[k % FUELS.length]!;
    rows.push({
      id: uuid(100 + k, 'e7000000'),
      organization_id: F.orgA,
      vin: `WDB9066331S${String(100000 + k)}`,
      plate: `HH-DM-${100 + k}`,
      make: 'Mercedes-Benz',
      model: 'Sprinter',
      model_year: 2022,
      fuel_type: fuel,
      vehicle_type: 'VAN',
      fuel_tank_capacity_l: fuel === 'ELECTRIC' ? null : 75,
      battery_capacity_kwh: fuel === 'ELECTRIC' ? 113 : fuel === 'PLUGIN_HYBRID' ? 13.8 : null,
      odometer_km: 40_000 + k * 1000,
    });
    groupRows.push({ group_id: F.groups.depot, vehicle_id: uuid(100 + k, 'e7000000') });
  }
  await knex('fleet.vehicles').insert(rows);
  await knex('fleet.group_vehicles').insert(groupRows);
  const trips = [];
  let n = 0;
  const start = now.getTime() - days * 86_400_000;
  for (let k = 0; k < vehicles; k++) {
    let lat = 53.55 + rnd() * 0.1;
    let lon = 9.95 + rnd() * 0.1;
    for (let d = 0; d < days; d++) {
      for (const hour of [6.5, 9.5, 12.5, 15.5]) {
        const km = 30 + rnd() * 60;
        const startedAt = new Date(start + d * 86_400_000 + hour * 3_600_000 + rnd() * 600_000);
        const endedAt = new Date(startedAt.getTime() + (km / 50) * 3_600_000);
        const angle = rnd() * Math.PI * 2;
        const reach = (km / 111) * 0.5;
        const nextLat = Math.min(53.9, Math.max(53.3, lat + Math.sin(angle) * reach));
        const nextLon = Math.min(10.4, Math.max(9.6, lon + Math.cos(angle) * reach));
        trips.push({
          id: uuid(++n, 'f7000000'),
          device_id: F.depotDevices[10 + k],
          vehicle_id: uuid(100 + k, 'e7000000'),
          driver_id: null,
          started_at: startedAt,
          ended_at: endedAt,
          start_latitude: lat,
          start_longitude: lon,
          end_latitude: nextLat,
          end_longitude: nextLon,
          distance_m: Math.round(km * 1000),
          max_speed_kmh: 90,
          idle_s: 60,
          fuel_used_l: null,
        });
        lat = nextLat;
        lon = nextLon;
      }
    }
  }
  for (let i = 0; i < trips.length; i += 1000) await knex('fleet.trips').insert(trips.slice(i, i + 1000));
}
