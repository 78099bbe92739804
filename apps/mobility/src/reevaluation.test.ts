/**
 * Detection when positions arrive late, and the anomaly lifecycle: an inconclusive position check
 * becomes a verdict when positions arrive; a finding contradicted by new positions is cleared by
 * the system (RESOLVED, clearedBy SYSTEM), kept with its history; a confirmed one is not touched.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { scratchDir } from '@fleetgraph/testing';
import { reviewAnomaly } from './domain/detection/engine';
import { addLatePositions, importPositions } from './import/positions';
import manifest from './manifest';
import { loadDataset, NOW } from './testing/dataset';
import { addTransactions } from './testing/helpers';

let h: SubgraphHarness;
let F: any;
const LATER = new Date(NOW.getTime() + 86_400_000);

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_reeval' });
  F = h.facts['fleet-core'];
  await loadDataset(h.knex, F);
});
after(() => h.close());

const anomaliesOf = (txId: string) =>
  h.knex('mobility.anomalies').where('transaction_id', txId).orderBy('detected_at');

test('a transaction with no position near its time is pending, then passes when positions near the station arrive (CSV import)', async () => {
  const tx = await h.knex('mobility.transactions').where({ station_city: 'Kiel' }).first();
  assert.ok(
    await h
      .knex('mobility.pending_checks')
      .where({ transaction_id: tx.id, code: 'VEHICLE_NOT_AT_STATION' })
      .first(),
  );
  assert.equal((await anomaliesOf(tx.id)).length, 0);
  const dir = scratchDir('mobility-reevaluation');
  const bad = join(dir, 'bad.csv');
  await writeFile(
    bad,
    `vehicleId,recordedAt,latitude,longitude\n${tx.vehicle_id},2026-02-10T11:55:00Z,154.3,10.13\nnope,x,1,1\n`,
  );
  const refused = await importPositions(h.knex, bad, { now: LATER, options: {} });
  assert.equal(refused.ok, false);
  assert.deepEqual(!refused.ok && refused.problems, [
    'line 2, latitude: must be between -90 and 90',
    'line 3, recordedAt: not an ISO 8601 date-time',
    'line 3, vehicleId: no vehicle with the id, VIN or plate "nope"',
  ]);
  assert.equal(
    Number((await h.knex('mobility.late_positions').count('* as n'))[0]!.n),
    0,
    'nothing written on error',
  );
  // The vehicle named by its plate, as every importer may name one.
  const { plate } = await h.knex('fleet_contract.vehicles_v1').where('id', tx.vehicle_id).first('plate');
  assert.ok(plate, 'the vehicle has a plate');
  const file = join(dir, 'positions.csv');
  await writeFile(
    file,
    `vehicle,recordedAt,latitude,longitude\n${plate},2026-02-10T11:55:00Z,54.3205,10.1301\n`,
  );
  const outcome = await importPositions(h.knex, file, { now: LATER, options: {} });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  assert.equal(await h.knex('mobility.pending_checks').where({ transaction_id: tx.id }).first(), undefined);
  assert.equal((await anomaliesOf(tx.id)).length, 0);
});

test('a pending check becomes an anomaly when the late position is far from the station', async () => {
  const [id] = await addTransactions(
    h.knex,
    [
      {
        organizationId: F.orgA,
        vehicleId: F.vehicles.depot[2],
        groupId: F.groups.depot,
        transactedAt: new Date('2026-02-20T10:00:00Z'),
        quantity: 30,
        stationLatitude: 53.55,
        stationLongitude: 9.99,
      },
    ],
    NOW,
  );
  assert.ok(await h.knex('mobility.pending_checks').where({ transaction_id: id }).first());
  const summary = await addLatePositions(
    h.knex,
    [
      {
        vehicleId: F.vehicles.depot[2],
        recordedAt: new Date('2026-02-20T10:10:00Z'),
        latitude: 52.52,
        longitude: 13.4,
      },
    ],
    LATER,
  );
  assert.equal(summary.detected, 1);
  const [a] = await anomaliesOf(id!);
  assert.equal(a.code, 'VEHICLE_NOT_AT_STATION');
  assert.equal(a.detected_by, 'SYSTEM');
  assert.equal(a.detected_at.toISOString(), LATER.toISOString());
  assert.equal(a.evidence.position.source, 'LATE_BACKFILL');
  const events = await h.knex('mobility.anomaly_events').where('anomaly_id', a.id);
  assert.deepEqual(
    events.map((e: any) => [e.status, e.actor, e.note]),
    [['DETECTED', 'SYSTEM', 're-evaluation']],
  );
});

test('a finding contradicted by late positions is cleared by the system and kept; a confirmed one stays', async () => {
  const munich = await h.knex('mobility.transactions').where({ station_city: 'München' }).first();
  const [found] = await anomaliesOf(munich.id);
  assert.equal(found.status, 'DETECTED');
  // A second, confirmed finding of the same kind on another transaction.
  const [other] = await addTransactions(
    h.knex,
    [
      {
        organizationId: F.orgA,
        vehicleId: F.vehicles.depot[0],
        deviceId: F.depotDevices[0],
        groupId: F.groups.depot,
        transactedAt: new Date(munich.transacted_at.getTime() + 20 * 60_000),
        quantity: 5,
        stationLatitude: 48.2,
        stationLongitude: 11.6,
        grossUnitPrice: null,
      },
    ],
    NOW,
  );
  const [confirmed] = await anomaliesOf(other!);
  assert.equal(confirmed.code, 'VEHICLE_NOT_AT_STATION');
  await reviewAnomaly(h.knex, {
    anomalyId: confirmed.id,
    accountId: F.alice.uid,
    decision: 'CONFIRMED',
    now: NOW,
  });
  // The device was offline: positions uploaded late show the van in Munich at both times.
  const summary = await addLatePositions(
    h.knex,
    [
      {
        vehicleId: F.vehicles.depot[0],
        recordedAt: munich.transacted_at,
        latitude: 48.1372,
        longitude: 11.5752,
      },
      {
        vehicleId: F.vehicles.depot[0],
        recordedAt: new Date(munich.transacted_at.getTime() + 20 * 60_000),
        latitude: 48.2,
        longitude: 11.6,
      },
    ],
    LATER,
  );
  assert.equal(summary.resolved, 1);
  const [after1] = await anomaliesOf(munich.id);
  assert.equal(after1.id, found.id);
  assert.equal(after1.status, 'RESOLVED');
  assert.equal(after1.active, false);
  assert.equal(after1.cleared_by, 'SYSTEM');
  assert.equal(after1.cleared_at.toISOString(), LATER.toISOString());
  assert.equal(after1.description, found.description, 'the finding itself is not rewritten');
  const events = await h.knex('mobility.anomaly_events').where('anomaly_id', found.id).orderBy('at');
  assert.deepEqual(
    events.map((e: any) => e.status),
    ['DETECTED', 'RESOLVED'],
  );
  const [stays] = await anomaliesOf(other!);
  assert.equal(stays.status, 'CONFIRMED');
  assert.equal(stays.active, true);
  // Through the API.
  const res = await h.as(F.alice)(
    `query($id: [ID!]) { mobilityTransactionAnomalies(mobilityTransactionId: $id) { list { status active clearedBy clearedById clearedAt detectedBy } } }`,
    { id: [munich.id] },
  );
  assert.deepEqual(res.data.mobilityTransactionAnomalies.list, [
    {
      status: 'RESOLVED',
      active: false,
      clearedBy: 'SYSTEM',
      clearedById: 'rules-v1',
      clearedAt: LATER.toISOString(),
      detectedBy: 'SYSTEM',
    },
  ]);
  // Re-running re-evaluation changes nothing more.
  const again = await addLatePositions(
    h.knex,
    [
      {
        vehicleId: F.vehicles.depot[0],
        recordedAt: munich.transacted_at,
        latitude: 48.1372,
        longitude: 11.5752,
      },
    ],
    LATER,
  );
  assert.equal(again.detected + again.resolved, 0);
});

test('a user dismisses an anomaly: cleared by USER, a second decision is refused', async () => {
  const a = await h.knex('mobility.anomalies').where({ code: 'ODOMETER_BACKWARDS' }).first();
  assert.equal(
    await reviewAnomaly(h.knex, {
      anomalyId: a.id,
      accountId: F.alice.uid,
      decision: 'DISMISSED',
      note: 'pump typo',
      now: LATER,
    }),
    true,
  );
  assert.equal(
    await reviewAnomaly(h.knex, {
      anomalyId: a.id,
      accountId: F.alice.uid,
      decision: 'CONFIRMED',
      now: LATER,
    }),
    false,
  );
  const after1 = await h.knex('mobility.anomalies').where({ id: a.id }).first();
  assert.deepEqual(
    [after1.status, after1.active, after1.cleared_by, after1.cleared_by_id, after1.clear_reason],
    ['DISMISSED', false, 'USER', F.alice.uid, 'pump typo'],
  );
});
