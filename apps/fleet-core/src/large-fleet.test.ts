/**
 * The root devices list of an account that sees a large fleet: a member of the top-level group
 * with at least 64 visible groups walks its organization's devices per row (libs/visibility,
 * rootListScope). Here alice's HQ gets 70 more depots of 3 devices each; pages must list exactly
 * what the visibility rule selects, in id order, whichever shape reads them (bob still sees a
 * small subtree and builds his set).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { allPages } from '@fleetgraph/testing';
import { refreshGroupClosure, rootListScope, visibleDevices, visibleDrivers } from '@fleetgraph/visibility';
import { F } from './testing/fixture';
import { startHarness, type Harness } from './testing/harness';

const DEPOTS = 70;
let h: Harness;

before(async () => {
  h = await startHarness('fleet_large_fleet');
  await h.knex.raw(
    `insert into fleet.groups (id, organization_id, label)
     select ('0000aaaa-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, ?, 'Depot ' || n
       from generate_series(1, ?) n`,
    [F.orgA, DEPOTS],
  );
  await h.knex.raw(
    `insert into fleet.group_parents (group_id, parent_id)
     select ('0000aaaa-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, ? from generate_series(1, ?) n`,
    [F.groups.hq, DEPOTS],
  );
  await h.knex.raw(
    `insert into fleet.devices (id, organization_id, device_type)
     select 'large-' || n || '-' || k, ?, 'BOX' from generate_series(1, ?) n, generate_series(1, 3) k`,
    [F.orgA, DEPOTS],
  );
  await h.knex.raw(
    `insert into fleet.group_devices (group_id, device_id)
     select ('0000aaaa-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'large-' || n || '-' || k
       from generate_series(1, ?) n, generate_series(1, 3) k`,
    [DEPOTS],
  );
  // Two drivers per depot; labels repeat across depots, so pages also break ties by id.
  await h.knex.raw(
    `insert into fleet.drivers (id, organization_id, label)
     select ('0000bbbb-0000-4000-8000-' || lpad((n * 10 + k)::text, 12, '0'))::uuid, ?, 'Driver ' || (n % 9)
       from generate_series(1, ?) n, generate_series(1, 2) k`,
    [F.orgA, DEPOTS],
  );
  await h.knex.raw(
    `insert into fleet.group_drivers (group_id, driver_id)
     select ('0000aaaa-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid,
            ('0000bbbb-0000-4000-8000-' || lpad((n * 10 + k)::text, 12, '0'))::uuid
       from generate_series(1, ?) n, generate_series(1, 2) k`,
    [DEPOTS],
  );
  // The closure is derived data; rebuilt as fleet-core does after a hierarchy change.
  await refreshGroupClosure(h.knex, F.orgA);
});
after(() => h.close());

async function pageThrough(user: typeof F.alice): Promise<{ ids: string[]; count: number }> {
  const { items, count } = await allPages<{ id: string }>(async (pageId) => {
    const res: any = await h.as(user)(
      `query($p: ID) { devices(pageSize: 40, pageId: $p) { count list { id } next } }`,
      { p: pageId },
    );
    assert.equal(res.errors, undefined);
    return res.data.devices;
  });
  return { ids: items.map((d) => d.id), count };
}

const expected = async (uid: string) =>
  (await h.knex.select('v.id').from(visibleDevices(h.knex, uid).as('v')).orderBy('v.id')).map(
    (r: { id: string }) => r.id,
  );

test('a top-level member of a large fleet walks per row and pages through exactly the devices it sees', async () => {
  assert.equal((await rootListScope(h.knex, F.alice.uid)).shape, 'per-row', 'control: alice walks');
  const seen = await pageThrough(F.alice);
  const all = await expected(F.alice.uid);
  assert.equal(all.length, 127 + DEPOTS * 3);
  assert.equal(seen.count, all.length);
  assert.deepEqual(seen.ids, all);
});

test('a sub-group member of the same organization builds its set and pages through its own devices', async () => {
  assert.equal((await rootListScope(h.knex, F.bob.uid)).shape, 'set', 'control: bob builds his set');
  const seen = await pageThrough(F.bob);
  const all = await expected(F.bob.uid);
  assert.equal(all.length, 120);
  assert.equal(seen.count, 120);
  assert.deepEqual(seen.ids, all);
});

/** Every page of the root drivers list (default order, `args` added), and its count. */
async function driverPages(user: typeof F.alice, args = ''): Promise<{ ids: string[]; count: number }> {
  const { items, count } = await allPages<{ id: string }>(async (pageId) => {
    const res: any = await h.as(user)(
      `query($p: ID) { drivers(pageSize: 30, pageId: $p${args}) { count list { id } next } }`,
      { p: pageId },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    return res.data.drivers;
  });
  return { ids: items.map((d) => d.id), count };
}

/** The drivers the visibility rule gives `uid`, in the list's default order (label, then id). */
const expectedDrivers = async (uid: string) =>
  (
    await h
      .knex('fleet.drivers as dr')
      .select('dr.id')
      .whereIn('dr.id', visibleDrivers(h.knex, uid))
      .orderBy(['dr.label', 'dr.id'])
  ).map((r: { id: string }) => r.id);

test('drivers: a top-level member of a large fleet walks them per row, in label order, through exactly those it sees', async () => {
  const all = await expectedDrivers(F.alice.uid);
  assert.ok(all.length >= DEPOTS * 2, `control: alice sees the depots' drivers (${all.length})`);
  const seen = await driverPages(F.alice);
  assert.deepEqual(seen.ids, all);
  assert.equal(seen.count, all.length);
  const sorted = await driverPages(F.alice, ', sort: [{ field: LABEL, direction: ASC }]');
  assert.deepEqual(sorted.ids, all, 'the default sort named explicitly walks the same way');
});

test('drivers: a sub-group member builds its set; another sort or a filter reads the set too', async () => {
  const bob = await expectedDrivers(F.bob.uid);
  assert.ok(bob.length >= 2, `control: bob sees the depot's drivers (${bob.length})`);
  assert.deepEqual((await driverPages(F.bob)).ids, bob);
  const descending = await driverPages(F.alice, ', sort: [{ field: LABEL, direction: DESC }]');
  assert.deepEqual(
    descending.ids,
    [...(await expectedDrivers(F.alice.uid))].reverse(),
    'label descending, then id',
  );
  const active = await driverPages(F.alice, ', active: true');
  assert.equal(active.count, active.ids.length);
  assert.ok(
    active.ids.length >= DEPOTS * 2,
    `control: the depots' drivers are active (${active.ids.length})`,
  );
});
