/**
 * The 30-day km behind averageDailyDistance: fleet-core's daily distances for the whole days and
 * the trips of the two partial days at the window's edges (recentWindow), so a vehicle's cost
 * does not grow with its trips. Proven on 20,000 trips of one vehicle in the window, against the
 * sum of its trips that ended in (now - 30 days, now], with no table statistics.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { assertNoStatistics, explainNodes, rowsRead } from '@fleetgraph/testing';
import manifest from './manifest';
import { NOW, seedMaintenanceFixture } from './testing/fixture';
import { recentWindow, vehicleFacts, vehicleFactsQuery } from './data/tables';

let h: SubgraphHarness;
let F: any;
const now = new Date(NOW);

before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'maintenance_recent_distance',
    seed: (knex, facts) => seedMaintenanceFixture(knex, facts['fleet-core']),
  });
  F = h.facts['fleet-core'];
  // One trip ending every 2 minutes from the window's start (excluded) on: 20,000 trips, ~28 days.
  await h.knex.raw(
    `insert into fleet.trips (id, device_id, vehicle_id, started_at, ended_at, start_latitude, start_longitude,
       end_latitude, end_longitude, distance_m, max_speed_kmh)
     select gen_random_uuid(), ?, ?::uuid, e - interval '1 minute', e, 48.85, 2.35, 48.86, 2.36, 100 + g % 7, 50
       from generate_series(0, 19999) g, lateral (select ?::timestamptz + g * interval '2 minutes' as e) x`,
    [F.depotDevices[0], F.vehicles.depot[0], recentWindow(now).since],
  );
  await assertNoStatistics(h.knex, 'fleet', 'trips');
});
after(() => h?.close());

test("each vehicle's 30-day km is the sum of its trips that ended in (now - 30 days, now]", async () => {
  const facts = await vehicleFacts(h.knex, F.alice.uid, {}, now);
  const { rows } = await h.knex.raw(
    `select vehicle_id as id, sum(distance_m)::float8 / 1000 as km from fleet.trips
      where ended_at > ? and ended_at <= ? and vehicle_id is not null group by vehicle_id`,
    [recentWindow(now).since, now],
  );
  const expected = new Map<string, number>(rows.map((r: { id: string; km: number }) => [r.id, r.km]));
  assert.ok(facts.length >= 3, 'control: alice sees the fleet');
  assert.ok((expected.get(F.vehicles.depot[0]) ?? 0) > 2000, 'control: the dense vehicle drove');
  for (const vehicle of facts) assert.equal(vehicle.recentKm, expected.get(vehicle.id) ?? 0, vehicle.id);
});

test('the 30-day km reads the trips of two partial days, not the 20,000 of the window', async () => {
  const { sql, bindings } = vehicleFactsQuery(h.knex, F.alice.uid, {}, now).toSQL();
  const nodes = await explainNodes(h.knex, sql, bindings, { analyze: true });
  const trips = nodes.filter((node) => node['Relation Name'] === 'trips');
  assert.ok(trips.length > 0, JSON.stringify(nodes.map((n) => n['Node Type'])));
  const read = rowsRead(nodes, 'trips');
  // The first partial day holds 720 of the dense vehicle's trips; the fixture's vehicles a few each.
  assert.ok(read < 1500, `trips rows read: ${read}`);
});
