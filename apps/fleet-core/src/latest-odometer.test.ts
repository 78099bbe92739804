/**
 * fleet_contract.vehicle_latest_odometer_v1 (migration 20261126_008): each vehicle's newest row of
 * vehicle_odometer_v1, read with a cost that follows the vehicle's device sessions, not its
 * readings. Proven on 20,000 ODOMETER readings of one device that served two vehicles (an ended
 * session and an open one), a tie on the newest instant, and no table statistics.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { assertNoStatistics, explainNodes, rowsRead } from '@fleetgraph/testing';
import manifest from './manifest';
import { F, loadFixture } from './testing/fixture';

let h: SubgraphHarness;
const device = F.depotDevices[0]!;
const current = F.vehicles.depot[0]!; // the device's open session, from 2026-01-01
const former = F.vehicles.south[0]!; // its ended session, 2025-06-01 to 2025-12-31
const NEWEST = '2026-04-01T00:00:00.000Z';

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'fleet_latest_odometer', seed: loadFixture });
  // One reading every 20 minutes from 2025-06-01 (both sessions and the gap between them).
  await h.knex.raw(
    `insert into fleet.readings (id, device_id, field, recorded_at, value)
     select gen_random_uuid(), ?, 'ODOMETER', timestamptz '2025-06-01' + g * interval '20 minutes', 1000 + g
       from generate_series(0, 19999) g`,
    [device],
  );
  // A tie on the newest instant: the higher value is the answer (recorded_at desc, odometer_km desc).
  await h.knex('fleet.readings').insert(
    [90_001, 90_003, 90_002].map((value) => ({
      id: randomUUID(),
      device_id: device,
      field: 'ODOMETER',
      recorded_at: NEWEST,
      value,
    })),
  );
  // Their own odometer older than the readings, so the readings decide for these two.
  await h
    .knex('fleet.vehicles')
    .whereIn('id', [current, former])
    .update({ odometer_updated_at: '2025-01-01T00:00:00Z' });
  await assertNoStatistics(h.knex, 'fleet', 'readings');
});
after(() => h?.close());

const LATEST = `select v.id, o.recorded_at, o.odometer_km, o.source
  from fleet.vehicles v
  left join lateral (select o.* from fleet_contract.vehicle_latest_odometer_v1 o where o.vehicle_id = v.id) o on true
 order by v.id`;

test("each vehicle's latest odometer is the newest row of its odometer history", async () => {
  const { rows: latest } = await h.knex.raw(LATEST);
  const { rows: reference } = await h.knex.raw(`select v.id, o.recorded_at, o.odometer_km, o.source
      from fleet.vehicles v
      left join lateral (
        select o.* from fleet_contract.vehicle_odometer_v1 o where o.vehicle_id = v.id
         order by o.recorded_at desc, o.odometer_km desc limit 1) o on true
     order by v.id`);
  assert.ok(latest.length >= 6, 'control: every fixture vehicle is answered');
  assert.deepEqual(latest, reference);
  type Row = { id: string; recorded_at: Date; odometer_km: number; source: string };
  const byId = new Map((latest as Row[]).map((row) => [row.id, row]));
  const newest = byId.get(current)!;
  assert.deepEqual(
    [newest.recorded_at.toISOString(), newest.odometer_km, newest.source],
    [NEWEST, 90_003, 'READING'],
    'the tie on the newest instant answers the highest value',
  );
  const last = byId.get(former)!;
  assert.equal(last.source, 'READING');
  assert.ok(last.recorded_at < new Date('2025-12-31T00:00:00Z'), 'a reading of the ended session only');
});

test('the latest odometer reads a few index entries per session, not the 20,000 readings', async () => {
  const nodes = await explainNodes(h.knex, LATEST, [], { analyze: true });
  const readings = nodes.filter((node) => node['Relation Name'] === 'readings');
  assert.ok(readings.length > 0, JSON.stringify(nodes.map((n) => n['Node Type'])));
  const read = rowsRead(nodes, 'readings');
  assert.ok(read <= 10, `readings rows read: ${read} (${readings.map((n) => n['Node Type']).join(', ')})`);
  assert.ok(!nodes.some((node) => node['Node Type'] === 'Sort' && (node['Actual Rows'] ?? 0) > 10));
});
