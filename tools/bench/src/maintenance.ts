/**
 * maintenance benchmark (issue 13): upcoming work computed for a fleet of 500 vehicles among
 * 100k vehicles with 5 years of service history.
 *
 *   1. generates, with SQL generate_series in a throwaway bench database: one organization,
 *      BENCH_VEHICLES vehicles (default 100000) in groups of 500, a viewer member of the first
 *      group, 20 trips in the last 30 days for each of the viewer's vehicles, the demo's global
 *      template catalog, and 5 years of history for every vehicle on the templates that apply to
 *      all types (brakes, brake fluid, inspection, cabin filter, coolant, air conditioning);
 *   2. straight to the maintenance subgraph over HTTP (signed token, visibility SQL), measures
 *      p50/p99 of `maintenanceUpcomings` (the viewer's 500 vehicles, page of 50, with count)
 *      and of the same for one vehicle through `_entities` (Vehicle.maintenanceUpcoming);
 *   3. prints the SQL statements per request for page sizes 10 and 500 (constant).
 * No ANALYZE is run: plans are those of a database whose statistics are missing.
 *
 *   npx tsx tools/bench/src/maintenance.ts   (BENCH_VEHICLES, default 100000; BENCH_N, default 100)
 */
import { performance } from 'node:perf_hooks';
import { createKnex, migrateSchema } from '@fleetgraph/db';
import { subgraphManifest } from '@fleetgraph/subgraph-kit';
import { createStatementCounter, createTestIssuer, postGraphQL } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { measure, printRow } from './harness';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 100_000);
const N = Number(process.env.BENCH_N ?? 100);
const FLEET = 500;
const ORG = '0d000000-0000-4000-8000-000000000001';
const VIEWER = {
  uid: '0d000000-0000-4000-8000-000000000003',
  email: 'bench@maintenance.example',
  fullName: 'Bench',
};
const NOW = '2026-11-20T00:00:00Z';
const vehicleId = (n: string) => `('0e000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const groupId = (n: string) => `('0f000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

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
  const t0 = performance.now();
  const groups = Math.ceil(VEHICLES / FLEET);
  await knex.raw(`insert into fleet.organizations (id, name) values (?, 'Bench Org')`, [ORG]);
  await knex.raw(`insert into fleet.accounts (id, organization_id, email, full_name) values (?, ?, ?, ?)`, [
    VIEWER.uid,
    ORG,
    VIEWER.email,
    VIEWER.fullName,
  ]);
  await knex.raw(
    `insert into fleet.groups (id, organization_id, label) select ${groupId('g')}, ?, 'Fleet ' || g from generate_series(1, ?) g`,
    [ORG, groups],
  );
  await knex.raw(`insert into fleet.group_closure select id, id, 0 from fleet.groups`);
  await knex.raw(`insert into fleet.group_accounts values (${groupId('1')}, ?)`, [VIEWER.uid]);
  await knex.raw(
    `insert into fleet.vehicles (id, organization_id, vehicle_type, fuel_type, odometer_km, odometer_updated_at, created_at)
     select ${vehicleId('n')}, ?, (array['CAR','VAN','LIGHT_TRUCK','HEAVY_TRUCK'])[1 + n % 4],
            (array['DIESEL','GASOLINE','ELECTRIC'])[1 + n % 3], 20000 + (n * 7919) % 280000,
            ?::timestamptz - interval '1 hour' * (n % 48), ?::timestamptz - interval '6 years'
       from generate_series(1, ?) n`,
    [ORG, NOW, NOW, VEHICLES],
  );
  await knex.raw(
    `insert into fleet.group_vehicles select ${groupId('1 + (n - 1) / ' + FLEET)}, ${vehicleId('n')} from generate_series(1, ?) n`,
    [VEHICLES],
  );
  // devices and trips for the viewer's fleet: 20 trips over the last 30 days each
  await knex.raw(
    `insert into fleet.devices (id, organization_id, device_type, current_vehicle_id, status)
     select 'MBENCH' || lpad(n::text, 8, '0'), ?, 'OBD_DONGLE', ${vehicleId('n')}, 'CONNECTED' from generate_series(1, ?) n`,
    [ORG, FLEET],
  );
  await knex.raw(
    `insert into fleet.trips (id, device_id, vehicle_id, started_at, ended_at, start_latitude, start_longitude,
                              end_latitude, end_longitude, distance_m, max_speed_kmh)
     select gen_random_uuid(), 'MBENCH' || lpad(n::text, 8, '0'), ${vehicleId('n')},
            ?::timestamptz - interval '1 day' * (k * 1.5), ?::timestamptz - interval '1 day' * (k * 1.5) + interval '40 minutes',
            48.1, 11.5, 48.2, 11.6, 5000 + ((n * 31 + k * 17) % 90) * 1000, 110
       from generate_series(1, ?) n, generate_series(1, 20) k`,
    [NOW, NOW, FLEET],
  );
  // the demo's global catalog
  const { CATALOG } = await import('@fleetgraph/maintenance');
  await knex('maintenance.templates').insert(
    CATALOG.map((t) => ({
      id: t.id,
      description: t.description,
      system: t.system,
      interval_km: t.intervalKm,
      interval_months: t.intervalMonths,
      vehicle_types: t.vehicleTypes,
      fuel_types: t.fuelTypes,
    })),
  );
  // 5 years of history on the templates for every vehicle: one service per interval, a few days
  // early, at the mileage of a vehicle driving at a constant rate since its creation (6 years ago)
  const open = CATALOG.filter((t) => !t.vehicleTypes && !t.fuelTypes);
  const h0 = performance.now();
  for (const t of open) {
    const months = t.intervalMonths ?? 12;
    await knex.raw(
      `insert into maintenance.history (id, vehicle_id, template_id, mileage_km, done_at)
       select gen_random_uuid(), v.id, ?, (v.odometer_km * (6 * 365 - (s.at_days)) / (6 * 365))::int,
              ?::timestamptz - interval '1 day' * s.at_days
         from fleet.vehicles v
         cross join lateral (
           select (5 * 365 - k * ? * 30 + (hashtext(v.id::text || k) & 15)) as at_days
             from generate_series(0, 60 / ?) k) s
        where s.at_days > 0 and s.at_days <= 5 * 365`,
      [t.id, NOW, months, months],
    );
  }
  const history = Number((await knex('maintenance.history').count('* as n').first())!.n);
  console.log(
    `generated ${VEHICLES} vehicles in ${groups} groups, ${FLEET * 20} trips, ${history} service records ` +
      `(history in ${((performance.now() - h0) / 1000).toFixed(1)} s, total ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  if (process.env.BENCH_PROFILE) {
    const { vehicleFacts, serviceSummaries } = await import('@fleetgraph/maintenance');
    for (let k = 0; k < 3; k++) {
      const a = performance.now();
      const facts = await vehicleFacts(knex, VIEWER.uid, {}, new Date(NOW));
      const b = performance.now();
      await serviceSummaries(
        knex,
        facts.map((f) => f.id),
      );
      const c = performance.now();
      console.log(
        `profile: vehicle facts ${(b - a).toFixed(1)} ms (${facts.length}), service summaries ${(c - b).toFixed(1)} ms`,
      );
    }
    const captured: Array<{ sql: string; bindings: unknown[] }> = [];
    knex.on('query', (q: { sql: string; bindings: unknown[] }) => captured.push(q));
    const facts = await vehicleFacts(knex, VIEWER.uid, {}, new Date(NOW));
    await serviceSummaries(
      knex,
      facts.map((f) => f.id),
    );
    knex.removeAllListeners('query');
    const connection = await knex.client.acquireConnection();
    try {
      for (const q of captured) {
        await connection.query('set jit = off');
        const plan = await connection.query(`explain (analyze, buffers, costs off) ${q.sql}`, q.bindings);
        console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
      }
    } finally {
      await knex.client.releaseConnection(connection);
    }
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  const token = await issuer.token(VIEWER, { expiresIn: 3600 });
  const upcoming = (pageSize: number) => `{ maintenanceUpcomings(pageSize: ${pageSize}) { count next list {
    id mileageDeadline remainingDistanceToDrive dateDeadline remainingDaysToDrive
    template { id system } vehicle { id } criticality { code criticality } } } }`;
  const call = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await postGraphQL(url, query, { token, variables });
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data;
  };
  const first = await call(upcoming(50));
  const levels: Record<string, number> = {};
  const all = await call(upcoming(500));
  for (const i of all.maintenanceUpcomings.list)
    levels[i.criticality.code] = (levels[i.criticality.code] ?? 0) + 1;
  console.log(
    `the viewer's fleet: ${first.maintenanceUpcomings.count} upcoming items for ${FLEET} vehicles; first 500 by urgency: ${JSON.stringify(levels)}`,
  );
  console.log(`maintenance benchmark: ${N} sequential requests per row, direct to the subgraph (HTTP)`);
  printRow(
    'maintenanceUpcomings, 500 vehicles, page 50 + count',
    await measure(N, () => call(upcoming(50)).then(() => {})),
  );
  const entity = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { maintenanceUpcoming { count list { id remainingDaysToDrive criticality { code } } } maintenanceHistory(pageSize: 5) { list { id mileage date } } } } }`;
  printRow(
    'Vehicle.maintenanceUpcoming + history, 1 vehicle',
    await measure(N, (i) =>
      call(entity, {
        r: [
          {
            __typename: 'Vehicle',
            id: `0e000000-0000-4000-8000-${(1 + (i % FLEET)).toString(16).padStart(12, '0')}`,
          },
        ],
      }).then(() => {}),
    ),
  );
  for (const size of [10, 500]) {
    statements.reset();
    await call(upcoming(size));
    console.log(`SQL statements per request, maintenanceUpcomings(pageSize: ${size}): ${statements.count}`);
  }
} finally {
  await app.close();
  await knex.destroy();
  await database.close();
}
