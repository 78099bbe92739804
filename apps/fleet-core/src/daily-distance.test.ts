/**
 * fleet_contract.vehicle_daily_distance_v1 (migration 20261126_009, by the day a trip ended) and
 * vehicle_started_distance_v1 (20261128_013, by the day and month it started) stay equal to the
 * trips' per-vehicle sums through every kind of write: inserts in several statements,
 * updates that move a trip to another vehicle or day or correct its distance, a vehicle deleted
 * (its trips' vehicle set null), deletes that empty a day, truncate, and two transactions adding
 * to the same day at once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { commitWhileSecondWaits } from '@fleetgraph/testing';
import manifest from './manifest';
import { F, loadFixture } from './testing/fixture';

let h: SubgraphHarness;
const device = F.depotDevices[1]!;
const [v1, v2, v3] = F.vehicles.depot as [string, string, string];

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'fleet_daily_distance', seed: loadFixture });
});
after(() => h?.close());

async function expected(): Promise<string[]> {
  const { rows } = await h.knex.raw(`
    select vehicle_id, (ended_at at time zone 'UTC')::date::text as day, sum(distance_m)::int8 as distance_m,
           count(*)::int as trips
      from fleet.trips where vehicle_id is not null group by 1, 2`);
  return lines(rows);
}

async function stored(): Promise<string[]> {
  const { rows } = await h.knex.raw(
    'select vehicle_id, day::text as day, distance_m, trips from fleet_contract.vehicle_daily_distance_v1',
  );
  return lines(rows);
}

const lines = (rows: Array<Record<string, unknown>>) =>
  rows.map((r) => `${r.vehicle_id} ${r.day} ${Number(r.distance_m)} ${r.trips}`).sort();

async function expectedByStart(): Promise<string[]> {
  const { rows } = await h.knex.raw(`
    select vehicle_id, level, period_start, sum(distance_m)::int8 as distance_m, count(*)::int as trips
      from (select t.*, l.level,
                   date_trunc(case l.level when 'D' then 'day' else 'month' end, t.started_at at time zone 'UTC')
                     at time zone 'UTC' as period_start
              from fleet.trips t cross join (values ('D'), ('M')) l(level)
             where t.vehicle_id is not null) b
     group by 1, 2, 3`);
  return startLines(rows);
}

async function storedByStart(): Promise<string[]> {
  const { rows } = await h.knex.raw(
    'select vehicle_id, level, period_start, distance_m, trips from fleet_contract.vehicle_started_distance_v1',
  );
  return startLines(rows);
}

const startLines = (rows: Array<Record<string, unknown>>) =>
  rows
    .map(
      (r) =>
        `${r.vehicle_id} ${r.level} ${(r.period_start as Date).toISOString()} ${Number(r.distance_m)} ${r.trips}`,
    )
    .sort();

async function assertInStep(step: string): Promise<void> {
  assert.deepEqual(await stored(), await expected(), step);
  assert.deepEqual(await storedByStart(), await expectedByStart(), `${step} (by start)`);
}

const trip = (vehicle: string | null, endedAt: string, distance: number, id = randomUUID()) => ({
  id,
  device_id: device,
  vehicle_id: vehicle,
  started_at: new Date(Date.parse(endedAt) - 600_000).toISOString(),
  ended_at: endedAt,
  start_latitude: 48.85,
  start_longitude: 2.35,
  end_latitude: 48.86,
  end_longitude: 2.36,
  distance_m: distance,
  max_speed_kmh: 50,
});

test('the daily distances follow every insert, update, delete and truncate of the trips', async () => {
  await assertInStep('after the fixture and the migration');
  assert.ok((await stored()).length > 0, 'control: the fixture has trips with vehicles');
  assert.ok((await storedByStart()).length > 0, 'control: and distances by start');

  await h.knex('fleet.trips').insert([
    trip(v3, '2026-05-01T08:00:00Z', 1000),
    trip(v3, '2026-06-01T00:05:00Z', 1500), // started in May, ended in June
    trip(v3, '2026-05-01T23:59:59Z', 2000),
    trip(v3, '2026-05-02T00:00:00Z', 4000),
    trip(null, '2026-05-01T09:00:00Z', 8000),
  ]);
  await assertInStep('one statement: two trips on a day, one at the next midnight, one without a vehicle');
  await h.knex('fleet.trips').insert(trip(v3, '2026-05-01T12:00:00Z', 500));
  await assertInStep('a later statement adds to the day');

  const moved = await h.knex('fleet.trips').where({ vehicle_id: v3, distance_m: 500 }).first('id');
  await h.knex('fleet.trips').where({ id: moved.id }).update({ vehicle_id: v2 });
  await assertInStep('a trip moved to another vehicle');
  await h.knex('fleet.trips').where({ vehicle_id: v3, distance_m: 4000 }).update({
    started_at: '2026-05-03T09:00:00Z',
    ended_at: '2026-05-03T10:00:00Z',
  });
  await assertInStep('a trip moved to another day (the old day emptied)');
  await h.knex('fleet.trips').where({ vehicle_id: v3 }).increment('distance_m', 10);
  await assertInStep('distances corrected');
  await h.knex('fleet.trips').where({ vehicle_id: null }).update({ vehicle_id: v1 });
  await assertInStep('a trip without a vehicle given one');

  await h.knex('fleet.trips').where({ vehicle_id: v3 }).delete();
  await assertInStep('every trip of a vehicle deleted');
  assert.ok(!(await stored()).some((line) => line.startsWith(v3)), 'no day left for the vehicle');

  await h.knex('fleet.vehicles').where({ id: v2 }).delete();
  await assertInStep("a vehicle deleted: its trips' vehicle is set null");
  assert.ok(!(await stored()).some((line) => line.startsWith(v2)), 'no day left for the deleted vehicle');

  await h.knex.raw('truncate fleet.trips cascade');
  assert.deepEqual(await stored(), [], 'truncate empties the daily distances');
  assert.deepEqual(await storedByStart(), [], 'truncate empties the distances by start');
  await h.knex('fleet.trips').insert(trip(v1, '2026-06-01T10:00:00Z', 700));
  await assertInStep('a trip after the truncate');
});

test('two transactions adding to the same day at once lose no trip', async () => {
  const day = '2026-07-01T10:00:00Z';
  await commitWhileSecondWaits(
    h.knex,
    (trx) => trx('fleet.trips').insert(trip(v1, day, 100)),
    (trx) => trx('fleet.trips').insert(trip(v1, day, 200)),
  );
  const row = await h
    .knex('fleet_contract.vehicle_daily_distance_v1')
    .where({ vehicle_id: v1, day: '2026-07-01' })
    .first();
  assert.deepEqual([Number(row.distance_m), row.trips], [300, 2]);
  await assertInStep('after two concurrent inserts');
});
