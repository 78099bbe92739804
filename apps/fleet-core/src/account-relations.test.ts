/**
 * An account's groups, devices, vehicles and drivers as nested pages (Account.groups...): what
 * both the parent account and the viewer see; and a group's alerts, read down its subtree. Answers: every viewer and parent page through exactly
 * the intersection of the two accounts' visible sets, in the list's order. Cost: under a batch of
 * parents, each parent's page reads what that parent sees and about a page of per-row tests for
 * the viewer, however much the viewer sees; a parent that sees a large fleet walks its
 * organization and reads about a page (EXPLAIN ANALYZE, tables without statistics).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Knex } from 'knex';
import { asViewer, type Viewer } from '@fleetgraph/auth';
import { CursorCodec, firstPageStatement, relationLoader, type RelationSpec } from '@fleetgraph/paging';
import { assertNoStatistics, explainNodes, rowsRead } from '@fleetgraph/testing';
import {
  refreshGroupClosure,
  rootListScope,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from '@fleetgraph/visibility';
import { relations } from './data/relation-specs';
import { alertRelations } from './data/services/alerts/relations';
import { F } from './testing/fixture';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('fleet_account_relations');
});
after(() => h.close());

const codec = new CursorCodec('account-relations-test-secret');

const KINDS = [
  { spec: relations.accountGroups, table: 'groups', set: visibleGroups },
  { spec: relations.accountDevices, table: 'devices', set: visibleDevices },
  { spec: relations.accountVehicles, table: 'vehicles', set: visibleVehicles },
  { spec: relations.accountDrivers, table: 'drivers', set: visibleDrivers },
] as const;

/** Every page of `spec` under `parents` for `viewer`, all parents loaded together page by page. */
async function pagesOf(
  knex: Knex,
  viewer: Viewer,
  spec: RelationSpec,
  parents: string[],
): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>(parents.map((p) => [p, []]));
  let cursors = new Map<string, string | undefined>(parents.map((p) => [p, undefined]));
  while (cursors.size > 0) {
    const loader = relationLoader<{ id: string }>(knex, codec, viewer, spec);
    const entries = [...cursors];
    const pages = await Promise.all(
      entries.map(([parentId, pageId]) => loader.load({ parentId, args: { pageSize: 2, pageId } })),
    );
    const next = new Map<string, string | undefined>();
    entries.forEach(([parentId], i) => {
      seen.get(parentId)!.push(...pages[i]!.list.map((row) => row.id));
      if (pages[i]!.next) next.set(parentId, pages[i]!.next!);
    });
    cursors = next;
  }
  return seen;
}

test('each account lists what both it and the viewer see, in page order, for every viewer', async () => {
  const accounts: string[] = (await h.knex('fleet.accounts').select('id').orderBy('id')).map(
    (r: { id: string }) => r.id,
  );
  let nonEmpty = 0;
  for (const { spec, table, set } of KINDS) {
    const [alias] = spec.child.alias.split(' ');
    for (const viewer of accounts.map(asViewer)) {
      const pages = await pagesOf(h.knex, viewer, spec, accounts);
      for (const parent of accounts) {
        const expected = (
          await h
            .knex(`fleet.${table} as ${alias}`)
            .select(`${alias}.id`)
            .whereIn(`${alias}.id`, set(h.knex, asViewer(parent)))
            .whereIn(`${alias}.id`, set(h.knex, viewer))
            .orderBy(spec.child.order.columns)
        ).map((r: { id: string }) => r.id);
        if (expected.length > 0) nonEmpty++;
        assert.deepEqual(pages.get(parent), expected, `${spec.name} of ${parent} for ${viewer}`);
      }
    }
  }
  assert.ok(nonEmpty > 20, `control: many pairs share children (${nonEmpty})`);
});

test('a page under many accounts reads what those accounts see, not what the viewer sees', async () => {
  for (const table of ['group_devices', 'group_vehicles', 'group_drivers', 'group_closure'])
    await assertNoStatistics(h.knex, 'fleet', table);
  const trx = await h.knex.transaction();
  try {
    // alice (HQ) sees 5,000 more devices, vehicles and drivers placed in South, and 500 more
    // groups under it (Bay 1..500); 40 more accounts are members of Bay 1, where the first three of
    // each kind are placed too: they see one group and three of each (rolled back).
    const BULK = 5000;
    const PARENTS = 40;
    const id = (prefix: string) => `('${prefix}-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid`;
    const bay1 = '0000cccc-0000-4000-8000-000000000001';
    await trx.raw(
      `insert into fleet.groups (id, organization_id, label)
       select ${id('0000cccc')}, ?, 'Bay ' || n from generate_series(1, 500) n`,
      [F.orgA],
    );
    await trx.raw(
      `insert into fleet.group_parents (group_id, parent_id)
       select ${id('0000cccc')}, ? from generate_series(1, 500) n`,
      [F.groups.south],
    );
    await refreshGroupClosure(trx, F.orgA);
    await trx.raw(
      `insert into fleet.devices (id, organization_id, device_type)
       select 'bulk-' || n, ?, 'BOX' from generate_series(1, ?) n`,
      [F.orgA, BULK],
    );
    await trx.raw(
      `insert into fleet.vehicles (id, organization_id, vin, plate)
       select ${id('0000dddd')}, ?, 'VIN' || n, 'P-' || n from generate_series(1, ?) n`,
      [F.orgA, BULK],
    );
    await trx.raw(
      `insert into fleet.drivers (id, organization_id, label)
       select ${id('0000eeee')}, ?, 'Bulk ' || n from generate_series(1, ?) n`,
      [F.orgA, BULK],
    );
    for (const [table, column, value] of [
      ['group_devices', 'device_id', `'bulk-' || n`],
      ['group_vehicles', 'vehicle_id', id('0000dddd')],
      ['group_drivers', 'driver_id', id('0000eeee')],
    ]) {
      await trx.raw(
        `insert into fleet.${table} (group_id, ${column})
         select ?::uuid, ${value} from generate_series(1, ?) n
         union all select ?::uuid, ${value} from generate_series(1, 3) n`,
        [F.groups.south, BULK, bay1],
      );
    }
    await trx.raw(
      `insert into fleet.accounts (id, organization_id, email, full_name)
       select ${id('0000ffff')}, ?, 'bay' || n || '@acme.example', 'Bay ' || n from generate_series(1, ?) n`,
      [F.orgA, PARENTS],
    );
    await trx.raw(
      `insert into fleet.group_accounts (group_id, account_id)
       select ?, ${id('0000ffff')} from generate_series(1, ?) n`,
      [bay1, PARENTS],
    );
    const parents: string[] = (
      await trx('fleet.group_accounts').select('account_id').where('group_id', bay1)
    ).map((r: { account_id: string }) => r.account_id);
    assert.equal(parents.length, PARENTS);
    const visibleToAlice = await trx.count('* as n').from(visibleVehicles(trx, F.alice.uid).as('v')).first();
    assert.ok(Number(visibleToAlice!.n) > BULK, 'control: alice sees the bulk vehicles');

    const PAGE = 5;
    for (const { spec } of KINDS) {
      // The statement relationLoader sends for a first page (relations.ts): every parent's page.
      const { sql, bindings } = firstPageStatement(trx, F.alice.uid, spec, parents, PAGE).toSQL();
      const nodes = await explainNodes(trx, sql, bindings, { analyze: true });
      const rows = (await trx.raw(sql, bindings)).rows as unknown[];
      assert.equal(
        rows.length,
        PARENTS * (spec === relations.accountGroups ? 1 : 3),
        `control: ${spec.name}`,
      );
      // Per parent: its membership, the group's placements (three), and for each child a
      // per-row test for alice reading its placements and their groups' ancestors: a few dozen
      // rows, none of the 5,000 of each kind alice sees.
      for (const table of [
        'group_devices',
        'group_vehicles',
        'group_drivers',
        'group_closure',
        spec.child.table,
      ]) {
        const read = rowsRead(nodes, table.replace('fleet.', ''));
        assert.ok(read <= PARENTS * 30, `${spec.name}: ${table} rows read ${read}`);
      }
    }

    // alice herself now sees a large fleet (504 groups from the top): under her, each kind walks
    // the organization in page order, testing her and the viewer per row, and stops with the page;
    // a first and a continued page answer what the set forms select.
    assert.equal(
      (await rootListScope(trx, F.alice.uid)).shape,
      'per-row',
      'control: alice sees a large fleet',
    );
    for (const kind of KINDS) {
      const spec: RelationSpec = kind.spec;
      if (!spec.ways) continue;
      const { table, set } = kind;
      for (const viewer of [F.alice.uid, F.bob.uid]) {
        const { alias } = spec.child;
        const expected = (
          await trx(`fleet.${table} as ${alias}`)
            .select(`${alias}.id`)
            .whereIn(`${alias}.id`, set(trx, F.alice.uid))
            .whereIn(`${alias}.id`, set(trx, viewer))
            .orderBy(spec.child.order.columns)
            .limit(2 * PAGE)
        ).map((r: { id: string }) => r.id);
        const loader = relationLoader<{ id: string }>(trx, codec, viewer, spec);
        const first = await loader.load({ parentId: F.alice.uid, args: { pageSize: PAGE } });
        const second = first.next
          ? (await loader.load({ parentId: F.alice.uid, args: { pageSize: PAGE, pageId: first.next } })).list
          : [];
        assert.deepEqual(
          [...first.list, ...second].map((row) => row.id),
          expected,
          `${spec.name} of alice for ${viewer}`,
        );
      }
      const statement = firstPageStatement(trx, F.alice.uid, spec, [F.alice.uid], PAGE).toSQL();
      const nodes = await explainNodes(trx, statement.sql, statement.bindings, { analyze: true });
      assert.equal((await trx.raw(statement.sql, statement.bindings)).rows.length, PAGE + 1);
      for (const name of ['group_devices', 'group_vehicles', 'group_drivers', spec.child.table]) {
        const read = rowsRead(nodes, name.replace('fleet.', ''));
        assert.ok(read <= 4 * (PAGE + 1), `${spec.name} under alice: ${name} rows read ${read}`);
      }
    }

    // A group's alerts (its subtree's devices'): under the 40 first bays, with an alert on each of
    // the 5,000 devices placed in South, each bay reads its own subtree only.
    await trx.raw(
      `insert into fleet.vehicle_alerts (id, organization_id, device_id, type, severity, status, message, started_at)
       select ${id('0000abab')}, ?, 'bulk-' || n, 'TOWING', 'INFO', 'ACTIVE', 'bulk', ?::timestamptz
         from generate_series(1, ?) n`,
      [F.orgA, '2026-01-01T00:00:00Z', BULK],
    );
    const bays: string[] = (
      await trx('fleet.groups').select('id').where('label', 'like', 'Bay %').orderBy('id').limit(PARENTS)
    ).map((r: { id: string }) => r.id);
    const alerts = alertRelations.groupAlerts;
    const { sql, bindings } = firstPageStatement(trx, F.alice.uid, alerts, bays, PAGE).toSQL();
    const nodes = await explainNodes(trx, sql, bindings, { analyze: true });
    assert.equal((await trx.raw(sql, bindings)).rows.length, 3, 'control: the alerts of Bay 1');
    for (const table of ['vehicle_alerts', 'group_devices', 'group_closure']) {
      const read = rowsRead(nodes, table);
      assert.ok(read <= PARENTS * 10, `${alerts.name}: ${table} rows read ${read}`);
    }
  } finally {
    await trx.rollback();
  }
});
