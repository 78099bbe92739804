/**
 * fleet_contract, the read-only views fleet-core publishes to other subgraphs: they answer what
 * the tables hold, and every one of them refuses writes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import manifest from './manifest';
import { F, loadFixture } from './testing/fixture';

let h: SubgraphHarness;
before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'fleet_contract', seed: loadFixture });
});
after(() => h.close());

test('the contract answers from the tables: who sees which vehicle, and the vehicle facts', async () => {
  const bob = await h
    .knex('fleet_contract.account_visible_vehicles_v1')
    .where('account_id', F.bob.uid)
    .pluck('vehicle_id');
  assert.deepEqual(new Set(bob), new Set(F.vehicles.depot));
  const facts = await h
    .knex('fleet_contract.vehicles_v1')
    .whereIn('id', F.vehicles.depot)
    .select('id', 'organization_id');
  assert.equal(facts.length, F.vehicles.depot.length);
  assert.ok(facts.every((v: { organization_id: string }) => v.organization_id === F.orgA));
});

test('every view of the contract refuses insert, update and delete', async () => {
  const views: string[] = await h
    .knex('information_schema.views')
    .where('table_schema', 'fleet_contract')
    .pluck('table_name');
  assert.ok(views.length >= 15, views.join(', '));
  const guarded = await h
    .knex('information_schema.triggers')
    .where({ event_object_schema: 'fleet_contract', trigger_name: 'read_only' })
    .distinct('event_object_table')
    .pluck('event_object_table');
  assert.deepEqual(new Set(guarded), new Set(views), 'every view has the read-only trigger');
  for (const view of views) {
    const rows = await h.knex(`fleet_contract.${view}`).count('* as n').first();
    if (Number(rows?.n) === 0) continue; // a row-level trigger fires only on a row
    await assert.rejects(
      h.knex(`fleet_contract.${view}`).del(),
      /read-only contract/,
      `${view} accepts a delete`,
    );
  }
  await assert.rejects(
    h.knex('fleet_contract.vehicles_v1').where('id', F.vehicles.depot[0]).update({ plate: 'HACKED' }),
    /read-only contract/,
  );
  const plate = await h.knex('fleet.vehicles').where('id', F.vehicles.depot[0]).first('plate');
  assert.notEqual(plate?.plate, 'HACKED');
});
