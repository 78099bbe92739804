/**
 * fleet-core trips benchmark:
 *
 *   1. seeds ~1M trips with the seed's streaming generator (the same code as `npm run seed`:
 *      plausible road trips, harshes, overspeeds, readings, battery annotations) and prints the
 *      seeding rate in trips/s;
 *   2. gives every trip the same driver, so Driver.trips pages over all 1M trips, newest first;
 *   3. through fleet-core's real HTTP endpoint (signed token, visibility SQL, keyset cursor),
 *      measures p50/p99 of page 1 and of a page ~800k rows deep (reached by following `next`,
 *      as a client would), and prints the deep/first ratio (goal: at most 1.5).
 *
 *   npx tsx tools/bench/src/fleet-trips.ts     (BENCH_TRIPS, default 1000000; BENCH_N, default 200)
 */
import { performance } from 'node:perf_hooks';
import { createKnex } from '@fleetgraph/db';
import { buildApp, loadFleetCoreConfig } from '@fleetgraph/fleet-core';
import { seedActivity, type DeviceActivity } from '@fleetgraph/seed';
import { createTestIssuer, postGraphQL } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { measure, printRow } from './harness';

const TRIPS = Number(process.env.BENCH_TRIPS ?? 1_000_000);
const N = Number(process.env.BENCH_N ?? 200);
const TRIPS_PER_DEVICE = 120;
const DEVICES = Math.ceil(TRIPS / TRIPS_PER_DEVICE);
const PAGE = 50;
const ORG = '0b000000-0000-4000-8000-000000000001';
const GROUP = '0b000000-0000-4000-8000-000000000002';
const VIEWER = {
  uid: '0b000000-0000-4000-8000-000000000003',
  email: 'bench@fleet.example',
  fullName: 'Bench',
};
const DRIVER = '0b000000-0000-4000-8000-000000000004';
const DAY = 86_400_000;
const CITIES = ['Hamburg', 'Berlin', 'Munich', 'Cologne', 'Frankfurt', 'Lyon', 'Paris', 'Toulouse'];

const database = await benchDatabase('bench_fleet_trips');
const issuer = await createTestIssuer();
const config = loadFleetCoreConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent' });
const app = await buildApp({ ...config, databaseUrl: database.url }, { jwks: issuer.jwks }); // migrates
const knex = createKnex({ url: database.url });
try {
  // A visible fleet: one organization, one group the viewer is a member of, DEVICES devices with
  // a vehicle each, and one driver.
  const now = Date.UTC(2026, 10, 22);
  await knex.raw(`insert into fleet.organizations (id, name) values (?, 'Bench Org')`, [ORG]);
  await knex.raw(`insert into fleet.accounts (id, organization_id, email, full_name) values (?, ?, ?, ?)`, [
    VIEWER.uid,
    ORG,
    VIEWER.email,
    VIEWER.fullName,
  ]);
  await knex.raw(`insert into fleet.groups (id, organization_id, label) values (?, ?, 'Bench Fleet')`, [
    GROUP,
    ORG,
  ]);
  await knex.raw(`insert into fleet.group_closure values (?, ?, 0)`, [GROUP, GROUP]);
  await knex.raw(`insert into fleet.group_accounts values (?, ?)`, [GROUP, VIEWER.uid]);
  await knex.raw(
    `insert into fleet.vehicles (id, organization_id, fuel_type)
     select ('0c000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, ?, 'DIESEL' from generate_series(1, ?) n`,
    [ORG, DEVICES],
  );
  await knex.raw(
    `insert into fleet.devices (id, organization_id, device_type, current_vehicle_id, status)
     select 'BENCH' || lpad(n::text, 10, '0'), ?, 'OBD_DONGLE',
            ('0c000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, 'CONNECTED'
       from generate_series(1, ?) n`,
    [ORG, DEVICES],
  );
  await knex.raw(`insert into fleet.group_devices select ?, id from fleet.devices`, [GROUP]);
  await knex.raw(`insert into fleet.drivers (id, organization_id, label) values (?, ?, 'Bench Driver')`, [
    DRIVER,
    ORG,
  ]);
  await knex.raw(`insert into fleet.group_drivers values (?, ?)`, [GROUP, DRIVER]);
  const devices: DeviceActivity[] = Array.from({ length: DEVICES }, (_, i) => ({
    deviceId: `BENCH${String(i + 1).padStart(10, '0')}`,
    vehicleId: `0c000000-0000-4000-8000-${(i + 1).toString(16).padStart(12, '0')}`,
    driverId: DRIVER,
    city: CITIES[i % CITIES.length]!,
    fuelType: 'DIESEL',
    firstConnectionAt: now - 400 * DAY,
    lastActivityAt: now - (i % 48) * 3_600_000,
    odometerKm: 50_000 + i,
  }));

  const seedStart = performance.now();
  let written = 0;
  let lastPrint = 0;
  const counts = await seedActivity(knex, devices, {
    tripsPerDevice: TRIPS_PER_DEVICE,
    onTrips: (n) => {
      written += n;
      if (written - lastPrint >= 100_000) {
        lastPrint = written;
        const s = (performance.now() - seedStart) / 1000;
        process.stderr.write(`  ${written} trips, ${Math.round(written / s)} trips/s\n`);
      }
    },
  });
  const seconds = (performance.now() - seedStart) / 1000;
  console.log(
    `seeded ${counts.trips} trips (+ ${counts.tripHarshes} harshes, ${counts.tripOverspeeds} overspeeds, ` +
      `${counts.readings} readings, ${counts.batteryAnnotations} battery annotations) for ${DEVICES} devices ` +
      `in ${seconds.toFixed(1)} s: ${Math.round(counts.trips / seconds)} trips/s`,
  );
  await knex.raw('analyze fleet.trips');

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  const token = await issuer.token(VIEWER, { expiresIn: 3600 });
  const page = async (pageSize: number, pageId: string | null) => {
    const res = await postGraphQL(
      url,
      `query($d: ID, $n: Int, $p: ID) { driver(id: $d) { trips(pageSize: $n, pageId: $p) {
         next list { id startedAt endedAt distanceKm maxSpeedKmh startPosition { latitude longitude } } } } }`,
      { token, variables: { d: DRIVER, n: pageSize, p: pageId } },
    );
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data.driver.trips as { next: string | null; list: Array<{ startedAt: string }> };
  };

  // Walk to ~80% depth with the largest page size, as a client reading everything would.
  const target = Math.floor(counts.trips * 0.8);
  const walkStart = performance.now();
  let cursor: string | null = null;
  let skipped = 0;
  while (skipped < target) {
    const result = await page(200, cursor);
    skipped += result.list.length;
    cursor = result.next;
    if (!cursor) break;
  }
  const walkSeconds = (performance.now() - walkStart) / 1000;
  console.log(
    `walked next to row ${skipped} of ${counts.trips} in ${walkSeconds.toFixed(1)} s (${Math.ceil(skipped / 200)} pages of 200)`,
  );
  const deepCursor = cursor;
  const deepFirst = (await page(PAGE, deepCursor)).list[0]!.startedAt;

  console.log(
    `Driver.trips(pageSize: ${PAGE}) straight to fleet-core over HTTP, ${N} sequential requests per row:`,
  );
  const first = await measure(N, () => page(PAGE, null).then(() => {}));
  printRow('page 1', first);
  const deep = await measure(N, () => page(PAGE, deepCursor).then(() => {}));
  printRow(`page at row ${skipped}`, deep, `   (first trip started ${deepFirst})`);
  console.log(
    `deep/first ratio: p50 ${(deep.p50 / first.p50).toFixed(2)}, p99 ${(deep.p99 / first.p99).toFixed(2)} (goal <= 1.5)`,
  );

  const plan = await knex.raw(
    `explain (analyze, buffers, costs off) select t.id from fleet.trips t where t.driver_id = ?
       and (t.started_at, t.id) < (?::timestamptz, ?::uuid) order by t.started_at desc, t.id desc limit 51`,
    [DRIVER, deepFirst, 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  );
  console.log('plan of the deep page:');
  for (const row of plan.rows as Array<Record<string, string>>) console.log(`  ${Object.values(row)[0]}`);
} finally {
  await knex.destroy();
  await app.close();
  await database.close();
}
