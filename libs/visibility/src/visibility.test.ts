/**
 * The visibility rules against fleet-core's published contract, on a throwaway database with
 * fleet-core migrated and its test fixture loaded:
 *
 *   Acme: Acme HQ (alice) ├── North (bob) ── North Depot: 120 devices, 3 vehicles, anna, bruno
 *                         └── South: 7 devices, 2 vehicles, carla, dieter
 *   Globex: Globex Root (carol): 5 devices, 1 vehicle, greta
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, createTestDatabase, migrateSchema, type Knex, type TestDatabase } from '@fleetgraph/db';
import { subgraphManifest } from '@fleetgraph/subgraph-kit';
import {
  organizationOf,
  visibleAccounts,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from './visibility';

let database: TestDatabase;
let knex: Knex;
let F: any;

before(async () => {
  database = await createTestDatabase('visibility');
  knex = createKnex({ url: database.url });
  const fleetCore = await subgraphManifest('fleet-core');
  await migrateSchema(knex, fleetCore.dbSchema, fleetCore.migrations);
  const fixture = await fleetCore.testFixture!();
  await fixture.load(knex);
  F = fixture.facts;
});
after(async () => {
  await knex?.destroy();
  await database?.drop();
});

/** The ids a visibility subquery selects, sorted. */
async function ids(subquery: Knex.QueryBuilder): Promise<string[]> {
  const rows: Array<{ id: string }> = await knex.select('s.id').from(subquery.as('s'));
  return rows.map((r) => r.id).sort();
}
const sorted = (values: string[]) => [...values].sort();

test('groups: a member sees its groups and all their descendants, nothing of another organization', async () => {
  const g = F.groups;
  assert.deepEqual(await ids(visibleGroups(knex, F.alice.uid)), sorted([g.hq, g.north, g.depot, g.south]));
  assert.deepEqual(await ids(visibleGroups(knex, F.bob.uid)), sorted([g.north, g.depot]));
  assert.deepEqual(await ids(visibleGroups(knex, F.carol.uid)), [g.globex]);
});

test('vehicles: those placed in a visible group', async () => {
  const v = F.vehicles;
  assert.deepEqual(await ids(visibleVehicles(knex, F.alice.uid)), sorted([...v.depot, ...v.south]));
  assert.deepEqual(await ids(visibleVehicles(knex, F.bob.uid)), sorted(v.depot));
  assert.deepEqual(await ids(visibleVehicles(knex, F.carol.uid)), [v.globex]);
});

test('devices: those placed in a visible group', async () => {
  assert.deepEqual(
    await ids(visibleDevices(knex, F.alice.uid)),
    sorted([...F.depotDevices, ...F.southDevices]),
  );
  const bob = await ids(visibleDevices(knex, F.bob.uid));
  assert.equal(bob.length, 120);
  assert.deepEqual(bob, sorted(F.depotDevices));
  assert.deepEqual(await ids(visibleDevices(knex, F.carol.uid)), sorted(F.globexDevices));
});

test('drivers: those placed in a visible group', async () => {
  const d = F.drivers;
  assert.deepEqual(
    await ids(visibleDrivers(knex, F.alice.uid)),
    sorted([d.anna, d.bruno, d.carla, d.dieter]),
  );
  assert.deepEqual(await ids(visibleDrivers(knex, F.bob.uid)), sorted([d.anna, d.bruno]));
  assert.deepEqual(await ids(visibleDrivers(knex, F.carol.uid)), [d.greta]);
});

test('accounts: members of a visible group, and always oneself', async () => {
  assert.deepEqual(await ids(visibleAccounts(knex, F.alice.uid)), sorted([F.alice.uid, F.bob.uid]));
  // bob sees North and the depot, where alice is not a member: only himself.
  assert.deepEqual(await ids(visibleAccounts(knex, F.bob.uid)), [F.bob.uid]);
  assert.deepEqual(await ids(visibleAccounts(knex, F.carol.uid)), [F.carol.uid]);
});

test('an unknown account sees nothing but itself', async () => {
  const nobody = '00000000-0000-4000-8000-00000000dead';
  assert.deepEqual(await ids(visibleGroups(knex, nobody)), []);
  assert.deepEqual(await ids(visibleVehicles(knex, nobody)), []);
  assert.deepEqual(await ids(visibleDevices(knex, nobody)), []);
  assert.deepEqual(await ids(visibleDrivers(knex, nobody)), []);
  assert.deepEqual(await ids(visibleAccounts(knex, nobody)), [nobody]);
});

test('organizationOf: the organization of an account', async () => {
  const org = async (uid: string) =>
    (
      (await knex.select('o.organization_id').from(organizationOf(knex, uid).as('o'))) as Array<{
        organization_id: string;
      }>
    ).map((r) => r.organization_id);
  assert.deepEqual(await org(F.alice.uid), [F.orgA]);
  assert.deepEqual(await org(F.bob.uid), [F.orgA]);
  assert.deepEqual(await org(F.carol.uid), [F.orgB]);
});
