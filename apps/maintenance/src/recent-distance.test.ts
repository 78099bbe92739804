/**
 * The 30-day km behind averageDailyDistance: the trips that ended in the 30 whole UTC days before
 * today, read from fleet-core's daily distances (recentDays), so a vehicle's cost does not grow
 * with its trips. Proven on ~22,000 trips of one vehicle, every 2 minutes from half a day before
 * the window to 8 hours into today, against the sum of its trips in the window, with no table
 * statistics.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { assertNoStatistics, explainNodes, rowsRead } from '@fleetgraph/testing';
import manifest from './manifest';
import { NOW, seedMaintenanceFixture } from './testing/fixture';
import { recentDays, vehicleFacts, vehicleFactsQuery } from './data/tables';

let h: SubgraphHarness;
let F: any;
/** 15:00 UTC on the fixture's day: today's trips so far are outside the window. */
const now = new Date(Date.parse(NOW) + 15 * 3_600_000);
const window = recentDays(now);

before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'maintenance_recent_distance',
    seed: (knex, facts) => seedMaintenanceFixture(knex, facts['fleet-core']),
  });
  F = h.facts['fleet-core'];
  // One trip ending every 2 minutes from 12 hours before the window to 8 hours into today.
  await h.knex.raw(
    `insert into fleet.trips (id, device_id, vehicle_id, started_at, ended_at, start_latitude, start_longitude,
       end_latitude, end_longitude, distance_m, max_speed_kmh)
     select gen_random_uuid(), ?, ?::uuid, e - interval '1 minute', e, 48.85, 2.35, 48.86, 2.36, 100 + g % 7, 50
       from generate_series(0, 22199) g,
            lateral (select ?::timestamptz - interval '12 hours' + g * interval '2 minutes' as e) x`,
    [F.depotDevices[0], F.vehicles.depot[0], `${window.from}T00:00:00Z`],
  );
  await assertNoStatistics(h.knex, 'fleet', 'trips');
});
after(() => h?.close());

test("each vehicle's 30-day km is the sum of its trips that ended in the 30 whole UTC days before today", async () => {
  assert.equal(window.from, '2026-03-01');
  assert.equal(window.to, '2026-03-31');
  const facts = await vehicleFacts(h.knex, F.alice.uid, {}, now);
  const sums = async (from: string | Date, to: string | Date) => {
    const { rows } = await h.knex.raw(
      `select vehicle_id as id, sum(distance_m)::float8 / 1000 as km from fleet.trips
        where ended_at >= ?::timestamptz and ended_at < ?::timestamptz and vehicle_id is not null
        group by vehicle_id`,
      [from, to],
    );
    return new Map<string, number>(rows.map((r: { id: string; km: number }) => [r.id, r.km]));
  };
  const expected = await sums(`${window.from}T00:00:00Z`, `${window.to}T00:00:00Z`);
  const dense = F.vehicles.depot[0];
  assert.ok(facts.length >= 3, 'control: alice sees the fleet');
  assert.ok((expected.get(dense) ?? 0) > 2000, 'control: the dense vehicle drove in the window');
  assert.ok(
    (await sums('2000-01-01T00:00:00Z', `${window.from}T00:00:00Z`)).get(dense)! > 0,
    'control: trips before',
  );
  assert.ok((await sums(`${window.to}T00:00:00Z`, now)).get(dense)! > 0, 'control: trips today');
  for (const vehicle of facts) assert.equal(vehicle.recentKm, expected.get(vehicle.id) ?? 0, vehicle.id);
});

test('the 30-day km reads at most 30 daily rows per vehicle and no trip', async () => {
  const { sql, bindings } = vehicleFactsQuery(h.knex, F.alice.uid, {}, now).toSQL();
  const nodes = await explainNodes(h.knex, sql, bindings, { analyze: true });
  const daily = nodes.filter((node) => node['Relation Name'] === 'vehicle_daily_distance');
  assert.equal(daily.length, 1, JSON.stringify(nodes.map((n) => n['Node Type'])));
  const vehicles = (await vehicleFacts(h.knex, F.alice.uid, {}, now)).length;
  assert.ok(vehicles >= 3, 'control: alice sees the fleet');
  const read = rowsRead(nodes, 'vehicle_daily_distance');
  assert.ok(read > 0 && read <= 30 * vehicles, `daily rows read: ${read} for ${vehicles} vehicles`);
  assert.equal(rowsRead(nodes, 'trips'), 0);
  assert.ok(!nodes.some((node) => node['Relation Name'] === 'trips'), 'the statement does not touch trips');
});
