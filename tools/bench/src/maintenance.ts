/**
 * maintenance benchmark: upcoming work computed for a fleet of 500 vehicles among
 * 100k vehicles with 5 years of service history.
 *
 *   1. generates, with SQL generate_series: one organization, BENCH_VEHICLES vehicles (default
 *      100000) in groups of 500, a viewer member of the first group, BENCH_TRIPS_PER_VEHICLE
 *      (default 20) trips in the last 30 days for each vehicle of that group, the demo's global
 *      template catalog, and 5 years of history for every vehicle on the templates that apply to
 *      all types (brakes, brake fluid, inspection, cabin filter, coolant, air conditioning);
 *   2. direct: the maintenance app in this process (signed token, visibility SQL, over HTTP),
 *      p50/p99 of `maintenanceUpcomings` (the viewer's 500 vehicles, page of 50, with count) and of
 *      one vehicle's `_entities` (Vehicle.maintenanceUpcoming + maintenanceHistory), and the SQL
 *      statements per request for page sizes 10 and 500 (constant);
 *   3. gateway (unless BENCH_GATEWAY=0): the whole platform with the demo data, the same data
 *      generated in its database with the demo account as the viewer of the 500-vehicle group;
 *      p50/p99 of the same query (groupIds filter) through the gateway and straight to the
 *      platform's maintenance subgraph.
 * No ANALYZE is run: plans are those of a database without statistics. BENCH_PROFILE=1 prints the
 * facts statement's plan.
 *
 *   npx tsx tools/bench/src/maintenance.ts   (BENCH_VEHICLES, default 100000; BENCH_N, default 100;
 *   BENCH_TRIPS_PER_VEHICLE, default 20)
 */
import { performance } from 'node:perf_hooks';
import { createKnex, migrateSchema, type Knex } from '@fleetgraph/db';
import { CATALOG, vehicleFactsQuery } from '@fleetgraph/maintenance';
import { subgraphManifest } from '@fleetgraph/subgraphs';
import { createStatementCounter, createTestIssuer, postGraphQL } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { measure, printRow, startBenchPlatform } from './harness';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 100_000);
const N = Number(process.env.BENCH_N ?? 100);
/** Trips per vehicle of the fleet, spread evenly over the last 30 days (a delivery van makes 600+). */
const TRIPS = Number(process.env.BENCH_TRIPS_PER_VEHICLE ?? 20);
const FLEET = 500;
const ORG = '0d000000-0000-4000-8000-000000000001';
const VIEWER = {
  uid: '0d000000-0000-4000-8000-000000000003',
  email: 'bench@maintenance.example',
  fullName: 'Bench',
};
const NOW = '2026-11-20T00:00:00Z';
const GROUP_1 = '0f000000-0000-4000-8000-000000000001';
const vehicleId = (n: string) => `('0e000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const groupId = (n: string) => `('0f000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

const UPCOMING = `query($g: [ID!], $n: Int) { maintenanceUpcomings(groupIds: $g, pageSize: $n) { count next list {
  id mileageDeadline remainingDistanceToDrive dateDeadline remainingDaysToDrive
  template { id system } vehicle { id } criticality { code criticality } } } }`;
const ENTITY = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle {
  maintenanceUpcoming { count list { id remainingDaysToDrive criticality { code } } }
  maintenanceHistory(pageSize: 5) { list { id mileage date } } } } }`;

/** The bench fleet, written with generate_series; `viewer` becomes a member of the first group. */
async function generate(knex: Knex, viewer: string): Promise<void> {
  const t0 = performance.now();
  const groups = Math.ceil(VEHICLES / FLEET);
  await knex.raw(`insert into fleet.organizations (id, name) values (?, 'Bench Org')`, [ORG]);
  if (viewer === VIEWER.uid)
    await knex.raw(`insert into fleet.accounts (id, organization_id, email, full_name) values (?, ?, ?, ?)`, [
      VIEWER.uid,
      ORG,
      VIEWER.email,
      VIEWER.fullName,
    ]);
  await knex.raw(
    `insert into fleet.groups (id, organization_id, label)
     select ${groupId('g')}, ?, 'Fleet ' || g from generate_series(1, ?) g`,
    [ORG, groups],
  );
  await knex.raw(
    `insert into fleet.group_closure select id, id, 0 from fleet.groups where organization_id = ?`,
    [ORG],
  );
  await knex.raw(`insert into fleet.group_accounts values (?, ?)`, [GROUP_1, viewer]);
  await knex.raw(
    `insert into fleet.vehicles (id, organization_id, vehicle_type, fuel_type, odometer_km, odometer_updated_at, created_at)
     select ${vehicleId('n')}, ?, (array['CAR','VAN','LIGHT_TRUCK','HEAVY_TRUCK'])[1 + n % 4],
            (array['DIESEL','GASOLINE','ELECTRIC'])[1 + n % 3], 20000 + (n * 7919) % 280000,
            ?::timestamptz - interval '1 hour' * (n % 48), ?::timestamptz - interval '6 years'
       from generate_series(1, ?) n`,
    [ORG, NOW, NOW, VEHICLES],
  );
  await knex.raw(
    `insert into fleet.group_vehicles
     select ${groupId('1 + (n - 1) / ' + FLEET)}, ${vehicleId('n')} from generate_series(1, ?) n`,
    [VEHICLES],
  );
  await knex.raw(
    `insert into fleet.devices (id, organization_id, device_type, current_vehicle_id, status)
     select 'MBENCH' || lpad(n::text, 8, '0'), ?, 'OBD_DONGLE', ${vehicleId('n')}, 'CONNECTED'
       from generate_series(1, ?) n`,
    [ORG, FLEET],
  );
  await knex.raw(
    `insert into fleet.trips (id, device_id, vehicle_id, started_at, ended_at, start_latitude, start_longitude,
                              end_latitude, end_longitude, distance_m, max_speed_kmh)
     select gen_random_uuid(), 'MBENCH' || lpad(n::text, 8, '0'), ${vehicleId('n')},
            ?::timestamptz - interval '1 day' * (k * ?::float8),
            ?::timestamptz - interval '1 day' * (k * ?::float8) + interval '40 minutes',
            48.1, 11.5, 48.2, 11.6, 5000 + ((n * 31 + k * 17) % 90) * 1000, 110
       from generate_series(1, ?) n, generate_series(1, ?) k`,
    [NOW, 30 / TRIPS, NOW, 30 / TRIPS, FLEET, TRIPS],
  );
  const existing = new Set(
    (await knex('maintenance.templates').select('id')).map((t: { id: string }) => t.id),
  );
  const missing = CATALOG.filter((t) => !existing.has(t.id));
  if (missing.length > 0)
    await knex('maintenance.templates').insert(
      missing.map((t) => ({
        id: t.id,
        description: t.description,
        system: t.system,
        interval_km: t.intervalKm,
        interval_months: t.intervalMonths,
        vehicle_types: t.vehicleTypes,
        fuel_types: t.fuelTypes,
      })),
    );
  // 5 years of history: one service per interval, a few days early, at the mileage of a vehicle
  // driving at a constant rate since its creation (6 years ago)
  const h0 = performance.now();
  for (const t of CATALOG.filter((c) => !c.vehicleTypes && !c.fuelTypes)) {
    const months = t.intervalMonths ?? 12;
    await knex.raw(
      `insert into maintenance.history (id, vehicle_id, template_id, mileage_km, done_at)
       select gen_random_uuid(), v.id, ?, (v.odometer_km * (6 * 365 - s.at_days) / (6 * 365))::int,
              ?::timestamptz - interval '1 day' * s.at_days
         from fleet.vehicles v
         cross join lateral (
           select (5 * 365 - k * ? * 30 + (hashtext(v.id::text || k) & 15)) as at_days
             from generate_series(0, 60 / ?) k) s
        where v.organization_id = ? and s.at_days > 0 and s.at_days <= 5 * 365`,
      [t.id, NOW, months, months, ORG],
    );
  }
  const history = Number((await knex('maintenance.history').count('* as n').first())!.n);
  console.log(
    `generated ${VEHICLES} vehicles in ${groups} groups, ${FLEET * TRIPS} trips, ${history} service records ` +
      `(history ${((performance.now() - h0) / 1000).toFixed(1)} s, total ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

async function profile(knex: Knex): Promise<void> {
  const { sql, bindings } = vehicleFactsQuery(knex, VIEWER.uid, {}, new Date(NOW)).toSQL().toNative();
  const connection = await knex.client.acquireConnection();
  try {
    await connection.query('set jit = off');
    const plan = await connection.query(`explain (analyze, buffers, costs off) ${sql}`, bindings);
    console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

const call =
  (url: string, token: string, headers: Record<string, string> = {}) =>
  async (query: string, variables: Record<string, unknown>) => {
    const res = await postGraphQL(url, query, { token, variables, headers });
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data;
  };
const oneVehicle = (i: number) => ({
  r: [
    {
      __typename: 'Vehicle',
      id: `0e000000-0000-4000-8000-${(1 + (i % FLEET)).toString(16).padStart(12, '0')}`,
    },
  ],
});

// ---- 1-2: direct, in this process ---------------------------------------------------------------
{
  const database = await benchDatabase('bench_maintenance');
  const issuer = await createTestIssuer();
  const statements = createStatementCounter();
  const fleetCore = await subgraphManifest('fleet-core');
  const maintenance = await subgraphManifest('maintenance');
  const knex = createKnex({ url: database.url });
  await migrateSchema(knex, fleetCore.dbSchema, fleetCore.migrations);
  const config = maintenance.loadConfig({
    SSO_ISSUER: issuer.issuer,
    LOG_LEVEL: 'silent',
    MAINTENANCE_NOW: NOW,
  });
  const app = await maintenance.buildApp(
    { ...config, databaseUrl: database.url },
    { jwks: issuer.jwks, onQuery: statements.record },
  );
  try {
    await generate(knex, VIEWER.uid);
    if (process.env.BENCH_PROFILE) await profile(knex);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
    const direct = call(url, await issuer.token(VIEWER, { expiresIn: 3600 }));
    const all = await direct(UPCOMING, { n: 500 });
    const levels: Record<string, number> = {};
    for (const i of all.maintenanceUpcomings.list)
      levels[i.criticality.code] = (levels[i.criticality.code] ?? 0) + 1;
    console.log(
      `the viewer's fleet: ${all.maintenanceUpcomings.count} upcoming items for ${FLEET} vehicles; first 500 by urgency: ${JSON.stringify(levels)}`,
    );
    console.log(`maintenance benchmark: ${N} sequential requests per row`);
    printRow(
      'direct: maintenanceUpcomings, 500 vehicles, page 50 + count',
      await measure(N, () => direct(UPCOMING, { n: 50 }).then(() => {})),
    );
    printRow(
      'direct: Vehicle.maintenanceUpcoming + history, 1 vehicle',
      await measure(N, (i) => direct(ENTITY, oneVehicle(i)).then(() => {})),
    );
    for (const size of [10, 500]) {
      statements.reset();
      await direct(UPCOMING, { n: size });
      console.log(`SQL statements per request, maintenanceUpcomings(pageSize: ${size}): ${statements.count}`);
    }
  } finally {
    await app.close();
    await knex.destroy();
    await database.close();
  }
}

// ---- 3: through the gateway, on the whole platform ---------------------------------------------
if (process.env.BENCH_GATEWAY !== '0') {
  const bench = await startBenchPlatform({ MAINTENANCE_NOW: NOW, RATE_LIMIT_PER_MINUTE: '0' });
  const knex = createKnex({ url: bench.databaseUrl });
  try {
    const demo: { id: string } = await knex('fleet_contract.accounts_v1')
      .where('email', 'demo@fleetgraph.dev')
      .first('id');
    await generate(knex, demo.id);
    const { platform, token } = bench;
    const viaGateway = call(platform.urls.graphql, token);
    const direct = call(platform.urls.subgraphs['maintenance']!, token, platform.subgraphHeaders);
    const vars = { g: [GROUP_1], n: 50 };
    const first = await viaGateway(UPCOMING, vars);
    console.log(`platform: ${first.maintenanceUpcomings.count} upcoming items in the 500-vehicle group`);
    const d = await measure(N, () => direct(UPCOMING, vars).then(() => {}));
    printRow('platform subgraph direct: maintenanceUpcomings(groupIds), page 50', d);
    const g = await measure(N, () => viaGateway(UPCOMING, vars).then(() => {}));
    printRow(
      'through the gateway: maintenanceUpcomings(groupIds), page 50',
      g,
      `   (gateway/direct p50 ${(g.p50 / d.p50).toFixed(2)}x)`,
    );
  } finally {
    await knex.destroy();
    await bench.close();
  }
}
