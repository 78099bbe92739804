/**
 * The visibility rules against fleet-core's published contract, on a throwaway database with
 * fleet-core migrated and its test fixture loaded:
 *
 *   Acme: Acme HQ (alice) ├── North (bob) ── North Depot: 120 devices, 3 vehicles, anna, bruno
 *                         └── South: 7 devices, 2 vehicles, carla, dieter
 *   Globex: Globex Root (carol): 5 devices, 1 vehicle, greta
 */
import assert from 'node:assert/strict';
import { asViewer, type Viewer } from '@fleetgraph/auth';
import { after, before, test } from 'node:test';
import { createKnex, createTestDatabase, migrateSchema, type Knex, type TestDatabase } from '@fleetgraph/db';
import { dependencyManifest } from '@fleetgraph/subgraph-kit';
import { assertNoStatistics, explainNodes, rowsRead } from '@fleetgraph/testing';
import {
  accountVisibleTo,
  deviceVisibleTo,
  driverVisibleTo,
  groupVisibleTo,
  vehicleVisibleTo,
  organizationOf,
  anyAssetVisible,
  visibleInOrder,
  type OrganizationWalk,
  type VisibilityForm,
  nextUuid,
  rootListScope,
  ListScopeCache,
  type ListScope,
  visibleAccounts,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from './visibility';
import { fleetVisibility } from './visible-ids';

let database: TestDatabase;
let knex: Knex;
let F: any;

before(async () => {
  database = await createTestDatabase('visibility');
  knex = createKnex({ url: database.url });
  const fleetCore = await dependencyManifest('fleet-core');
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
  const nobody = asViewer('00000000-0000-4000-8000-00000000dead');
  assert.deepEqual(await ids(visibleGroups(knex, nobody)), []);
  assert.deepEqual(await ids(visibleVehicles(knex, nobody)), []);
  assert.deepEqual(await ids(visibleDevices(knex, nobody)), []);
  assert.deepEqual(await ids(visibleDrivers(knex, nobody)), []);
  assert.deepEqual(await ids(visibleAccounts(knex, nobody)), [nobody]);
});

test('organizationOf: the organization of an account', async () => {
  const org = async (uid: Viewer) =>
    (
      (await knex.select('o.organization_id').from(organizationOf(knex, uid).as('o'))) as Array<{
        organization_id: string;
      }>
    ).map((r) => r.organization_id);
  assert.deepEqual(await org(F.alice.uid), [F.orgA]);
  assert.deepEqual(await org(F.bob.uid), [F.orgA]);
  assert.deepEqual(await org(F.carol.uid), [F.orgB]);
});

const NOBODY = asViewer('00000000-0000-4000-8000-00000000dead');

/** `count` more devices for alice, placed in the depot (tests add them in a rolled-back transaction). */
async function addDepotDevices(trx: Knex.Transaction, count: number): Promise<void> {
  await trx.raw(
    `insert into fleet.devices (id, organization_id, device_type)
     select 'bulk-' || n, ?, 'BOX' from generate_series(1, ?) n`,
    [F.orgA, count],
  );
  await trx.raw(
    `insert into fleet.group_devices (group_id, device_id)
     select ?, 'bulk-' || n from generate_series(1, ?) n`,
    [F.groups.depot, count],
  );
}
const FORMS = [
  { table: 'fleet.groups', set: visibleGroups, row: groupVisibleTo },
  { table: 'fleet.vehicles', set: visibleVehicles, row: vehicleVisibleTo },
  { table: 'fleet.devices', set: visibleDevices, row: deviceVisibleTo },
  { table: 'fleet.drivers', set: visibleDrivers, row: driverVisibleTo },
  { table: 'fleet.accounts', set: visibleAccounts, row: accountVisibleTo },
];

test('the per-row forms keep exactly the rows the set forms select, for every kind and account', async () => {
  for (const { table, set, row } of FORMS)
    for (const uid of [F.alice.uid, F.bob.uid, F.carol.uid, NOBODY]) {
      const kept = async (condition: (query: Knex.QueryBuilder) => void) => {
        const rows: Array<{ id: string }> = await knex(`${table} as x`).select('x.id').where(condition);
        return rows.map((r) => r.id).sort();
      };
      assert.deepEqual(
        await kept((q) => q.where(row(knex, uid, 'x.id'))),
        await kept((q) => q.whereIn('x.id', set(knex, uid))),
        `${table} seen by ${uid}`,
      );
    }
});

test('a lookup by id reads the device placements and their ancestors, not every device the viewer sees', async () => {
  await assertNoStatistics(knex, 'fleet', 'group_devices');
  await assertNoStatistics(knex, 'fleet', 'group_closure');
  const trx = await knex.transaction();
  try {
    // A large fleet for alice: 5,000 more devices in the depot (rolled back).
    await addDepotDevices(trx, 5000);
    // A page's batch: 50 ids bound as one array.
    const devices = [...F.depotDevices.slice(0, 48), ...F.southDevices.slice(0, 2)];
    const byId = () => trx('fleet.devices as d').select('d.id').whereRaw('d.id = any(?)', [devices]);
    const analyze = (query: Knex.QueryBuilder) => {
      const { sql, bindings } = query.toSQL();
      return explainNodes(trx, sql, bindings, { analyze: true });
    };
    assert.equal((await byId().where(deviceVisibleTo(trx, F.alice.uid, 'd.id'))).length, 50);
    const perRow = await analyze(byId().where(deviceVisibleTo(trx, F.alice.uid, 'd.id')));
    const semiJoin = await analyze(byId().whereIn('d.id', visibleDevices(trx, F.alice.uid)));
    // Control: the semi-join form reads the placements of all 5,127 devices alice sees.
    assert.ok(rowsRead(semiJoin, 'group_devices') >= 5000, `control: ${rowsRead(semiJoin, 'group_devices')}`);
    // Per device: its placement, and its group's ancestors (at most 3: depot, North, HQ).
    const placements = rowsRead(perRow, 'group_devices');
    const ancestors = rowsRead(perRow, 'group_closure');
    assert.ok(placements <= 50, `placements read: ${placements}`);
    assert.ok(ancestors <= 50 * 3, `ancestors read: ${ancestors}`);
  } finally {
    await trx.rollback();
  }
});

test('rootListScope: a member of a top-level group seeing a large fleet walks per row, anyone else builds the set', async () => {
  // alice (HQ, top level) sees 4 groups, carol (Globex Root) 1, bob (North, not top level) 2.
  const walkFromGroups = 2;
  assert.deepEqual(await rootListScope(knex, F.alice.uid, { walkFromGroups }), {
    shape: 'per-row',
    organizationId: F.orgA,
  });
  assert.deepEqual(await rootListScope(knex, F.alice.uid), { shape: 'set', organizationId: F.orgA });
  assert.deepEqual(await rootListScope(knex, F.alice.uid, { walkFromGroups: 5 }), {
    shape: 'set',
    organizationId: F.orgA,
  });
  assert.deepEqual(await rootListScope(knex, F.carol.uid, { walkFromGroups }), {
    shape: 'set',
    organizationId: F.orgB,
  });
  assert.deepEqual(await rootListScope(knex, F.bob.uid, { walkFromGroups }), {
    shape: 'set',
    organizationId: F.orgA,
  });
  assert.deepEqual(await rootListScope(knex, NOBODY, { walkFromGroups }), {
    shape: 'set',
    organizationId: null,
  });
});

test('nextUuid: the next uuid in byte order, carrying across groups; none after the last', () => {
  assert.equal(nextUuid('00000000-0000-4000-8000-0000000000ff'), '00000000-0000-4000-8000-000000000100');
  assert.equal(nextUuid('0000000f-ffff-ffff-ffff-ffffffffffff'), '00000010-0000-0000-0000-000000000000');
  assert.equal(nextUuid('ffffffff-ffff-ffff-ffff-ffffffffffff'), null);
});

const DEVICE_WALK: OrganizationWalk = {
  organization: 'd.organization_id',
  order: { columns: ['d.id'] },
  lowest: "''",
};
const deviceVisible = (db: Knex, uid: Viewer) => (form: VisibilityForm) =>
  anyAssetVisible(db, uid, { device: 'd.id' }, form);

/** The root devices list as a fleet-core resolver builds it, without order and limit. */
const devicesAfter = (db: Knex, uid: Viewer, scope: ListScope, after: string | null) =>
  visibleInOrder(
    db('fleet.devices as d').select('d.id'),
    scope,
    DEVICE_WALK,
    deviceVisible(db, uid),
    after == null ? null : [after],
  );

/** The ids of one page (or every page, with `size` large) of the root devices list, in order. */
async function devicePage(db: Knex, uid: Viewer, scope: ListScope, after: string | null, size = 1000) {
  const rows: Array<{ id: string }> = await devicesAfter(db, uid, scope, after).orderBy('d.id').limit(size);
  return rows.map((r) => r.id);
}

test('visibleInOrder: both shapes select the same devices in the same order, page after page', async () => {
  for (const uid of [F.alice.uid, F.bob.uid, F.carol.uid, NOBODY]) {
    const scope = await rootListScope(knex, uid, { walkFromGroups: 1 });
    const expected = await ids(visibleDevices(knex, uid));
    for (const shape of ['per-row', 'set'] as const) {
      const pages: string[] = [];
      for (let after: string | null = null; ;) {
        const page = await devicePage(knex, uid, { ...scope, shape }, after, 50);
        pages.push(...page);
        if (page.length < 50) break;
        after = page[page.length - 1]!;
      }
      assert.deepEqual(pages, expected, `${shape}, ${uid}`);
    }
  }
  assert.equal(
    (await devicePage(knex, F.alice.uid, await rootListScope(knex, F.alice.uid), null)).length,
    127,
  );
});

test('a root devices page walked per row tests about a page of devices, however many the viewer sees', async () => {
  await assertNoStatistics(knex, 'fleet', 'devices');
  const trx = await knex.transaction();
  try {
    // 5,000 more devices for alice, in the depot (rolled back).
    await addDepotDevices(trx, 5000);
    const scope = await rootListScope(trx, F.alice.uid, { walkFromGroups: 1 });
    const placementsRead = async (shape: ListScope['shape'], after: string | null) => {
      const { sql, bindings } = devicesAfter(trx, F.alice.uid, { ...scope, shape }, after)
        .orderBy('d.id')
        .limit(51)
        .toSQL();
      const nodes = await explainNodes(trx, sql, bindings, { analyze: true });
      return rowsRead(nodes, 'group_devices');
    };
    const built = await placementsRead('set', null);
    assert.ok(built >= 5000, `control: the set shape reads every placement alice sees (${built})`);
    assert.ok((await placementsRead('per-row', null)) <= 51, 'first page');
    // A page far down the list starts where the previous one ended.
    const later = await placementsRead('per-row', 'bulk-5');
    assert.ok(later <= 51, `a later page: ${later}`);
  } finally {
    await trx.rollback();
  }
});

test('ListScopeCache: one probe per account within the time to live, a new one after it', async () => {
  let now = 0;
  let probes = 0;
  const onQuery = () => (probes += 1);
  knex.on('query', onQuery);
  try {
    const cache = new ListScopeCache({ ttlMs: 1000, now: () => now, walkFromGroups: 2 });
    const first = await cache.scopeOf(knex, F.alice.uid);
    assert.deepEqual(first, { shape: 'per-row', organizationId: F.orgA });
    now = 999;
    assert.deepEqual(await cache.scopeOf(knex, F.alice.uid), first);
    assert.equal(probes, 1, 'kept within the time to live');
    await cache.scopeOf(knex, F.bob.uid);
    assert.equal(probes, 2, 'one entry per account');
    now = 1000;
    assert.deepEqual(await cache.scopeOf(knex, F.alice.uid), first);
    assert.equal(probes, 3, 'probed again once expired');
  } finally {
    knex.off('query', onQuery);
  }
});

test('ListScopeCache: the oldest account is dropped past maxEntries, and a failed probe is not kept', async () => {
  let probes = 0;
  const onQuery = () => (probes += 1);
  knex.on('query', onQuery);
  try {
    const cache = new ListScopeCache({ maxEntries: 2, now: () => 0 });
    for (const uid of [F.alice.uid, F.bob.uid, F.carol.uid]) await cache.scopeOf(knex, uid);
    await cache.scopeOf(knex, F.carol.uid);
    await cache.scopeOf(knex, F.bob.uid);
    assert.equal(probes, 3, 'bob and carol kept');
    await cache.scopeOf(knex, F.alice.uid);
    assert.equal(probes, 4, 'alice was dropped');
  } finally {
    knex.off('query', onQuery);
  }
  const broken = createKnex({ url: database.url.replace(/\/[^/]*$/, '/no_such_database_here') });
  try {
    const cache = new ListScopeCache({ now: () => 0 });
    await assert.rejects(cache.scopeOf(broken, F.alice.uid));
    // A kept rejection would answer this call too.
    assert.deepEqual(await cache.scopeOf(knex, F.alice.uid), { shape: 'set', organizationId: F.orgA });
  } finally {
    await broken.destroy();
  }
});

const NEWEST_WALK: OrganizationWalk = {
  organization: 'd.organization_id',
  order: { columns: ['d.created_at', 'd.id'], direction: 'desc' },
  lowest: "'-infinity'::timestamptz",
};

test('visibleInOrder newest first: both shapes page identically, and a walked page tests about a page of devices', async () => {
  await assertNoStatistics(knex, 'fleet', 'devices');
  const trx = await knex.transaction();
  try {
    // 5,000 more devices for alice in the depot, 97 creation times (rolled back).
    await trx.raw(
      `insert into fleet.devices (id, organization_id, device_type, created_at)
       select 'old-' || n, ?, 'BOX', timestamptz '2026-01-01' + (n % 97) * interval '1 minute'
         from generate_series(1, 5000) n`,
      [F.orgA],
    );
    await trx.raw(
      `insert into fleet.group_devices (group_id, device_id) select ?, 'old-' || n from generate_series(1, 5000) n`,
      [F.groups.depot],
    );
    // The walk's index, the only one on the organization (as on dvir's reports and mobility's
    // anomalies: beside the id-order index, the planner may walk that one and sort), built on the
    // large table as a migration would, so the planner's row estimate is the table's size.
    await trx.raw('drop index fleet.devices_org_order_idx');
    await trx.raw('create index devices_org_created_idx on fleet.devices (organization_id, created_at, id)');
    const newest = (uid: Viewer, scope: ListScope, after: readonly unknown[] | null) =>
      visibleInOrder(
        trx('fleet.devices as d').select('d.id', 'd.created_at'),
        scope,
        NEWEST_WALK,
        deviceVisible(trx, uid),
        after,
      )
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc');
    for (const uid of [F.alice.uid, F.bob.uid, F.carol.uid]) {
      const scope = await rootListScope(trx, uid, { walkFromGroups: 1 });
      const expected = (
        await trx('fleet.devices as d')
          .select('d.id')
          .whereIn('d.id', visibleDevices(trx, uid))
          .orderBy('d.created_at', 'desc')
          .orderBy('d.id', 'desc')
      ).map((r: { id: string }) => r.id);
      for (const shape of ['per-row', 'set'] as const) {
        const seen: string[] = [];
        for (let after: unknown[] | null = null; ;) {
          const page: Array<{ id: string; created_at: Date }> = await newest(
            uid,
            { ...scope, shape },
            after,
          ).limit(500);
          seen.push(...page.map((r) => r.id));
          if (page.length < 500) break;
          const last = page[page.length - 1]!;
          after = [last.created_at, last.id];
        }
        assert.deepEqual(seen, expected, `${shape}, ${uid}`);
      }
    }
    const scope = await rootListScope(trx, F.alice.uid, { walkFromGroups: 1 });
    const placementsRead = async (shape: ListScope['shape'], after: readonly unknown[] | null) => {
      const { sql, bindings } = newest(F.alice.uid, { ...scope, shape }, after)
        .limit(51)
        .toSQL();
      return rowsRead(await explainNodes(trx, sql, bindings, { analyze: true }), 'group_devices');
    };
    const built = await placementsRead('set', null);
    assert.ok(built >= 5000, `control: the set shape reads every placement alice sees (${built})`);
    assert.ok((await placementsRead('per-row', null)) <= 51, 'first page');
    const later = await placementsRead('per-row', [new Date('2026-01-01T00:40:00Z'), 'old-2000']);
    assert.ok(later <= 51, `a later page: ${later}`);
  } finally {
    await trx.rollback();
  }
});

test('fleetVisibility answers, per kind and in one statement per batch, which ids the viewer sees', async () => {
  let statements = 0;
  const counting = () => {
    statements += 1;
  };
  knex.on('query', counting);
  try {
    const bob = fleetVisibility(knex, F.bob.uid);
    const [depot, south, unknown, notUuid] = await Promise.all([
      bob.vehicle.load(F.vehicles.depot[0].toUpperCase()),
      bob.vehicle.load(F.vehicles.south[0]),
      bob.vehicle.load('00000000-0000-4000-8000-00000000dead'),
      bob.vehicle.load('not-a-uuid'),
    ]);
    assert.deepEqual([depot, south, unknown, notUuid], [true, false, false, false]);
    assert.equal(statements, 1, 'one statement for the batch');
    assert.deepEqual(
      await Promise.all([bob.device.load(F.depotDevices[0]), bob.device.load(F.southDevices[0])]),
      [true, false],
    );
    assert.deepEqual(await Promise.all([bob.group.load(F.groups.depot), bob.group.load(F.groups.south)]), [
      true,
      false,
    ]);
    assert.deepEqual(await Promise.all([bob.account.load(F.bob.uid), bob.account.load(F.carol.uid)]), [
      true,
      false,
    ]);
    const carol = fleetVisibility(knex, F.carol.uid);
    assert.equal(await carol.vehicle.load(F.vehicles.depot[0]), false, 'another organization sees none');
  } finally {
    knex.removeListener('query', counting);
  }
});
