/**
 * The root list of reports of an account that sees a large fleet walks its organization's reports
 * newest first and tests each row (libs/visibility rootListScope, visibleInOrder). Here the walk
 * starts at 2 visible groups (VISIBILITY_WALK_FROM_GROUPS), so alice, a member of Acme's top-level
 * group (4 groups), walks; bob (a sub-group) builds his set. 40 more reports, several sharing a
 * start time, sit beside the fixture's (and 5 more in Globex, which no Acme page may show): pages must list
 * exactly what the visibility rule selects, in the list's order, whichever shape reads them.
 */
import { after, before, test } from 'node:test';
import { asViewer } from '@fleetgraph/auth';
import assert from 'node:assert/strict';
import { allPages, assertNoStatistics, explainNodes, rowsRead } from '@fleetgraph/testing';
import { rootListScope } from '@fleetgraph/visibility';
import { reportList } from './data/report-list';
import { whereFleetVisible } from './data/visibility';
import { D, startDvirHarness, type DvirHarness } from './testing/fixture';

let h: DvirHarness;
let F: any;

/** `count` copies of `report` (new ids, a start time every 30 minutes, pairs sharing one). */
async function copies(report: string, count: number, prefix: string): Promise<void> {
  await h.knex.transaction(async (trx) => {
    await trx.raw(
      'create temp table copy on commit drop as select * from dvir.inspection_reports where id = ?',
      [report],
    );
    await trx.raw(
      `insert into dvir.inspection_reports
       select (? || lpad(n::text, 12, '0'))::uuid, c.organization_id, c.vehicle_id, c.group_id, c.driver_id,
              c.template_id, c.template_version, c.default_language, c.vehicle_type, c.workflow_status,
              c.status, c.inspection_type, c.odometer, c.fuel_level, c.driver_signature_date,
              c.location_lat, c.location_lng, c.location_address,
              c.started_at + ((n / 2) * interval '30 minutes'), c.completed_at, c.created_at, c.updated_at
         from copy c, generate_series(1, ?) n`,
      [prefix, count],
    );
  });
}

before(async () => {
  h = await startDvirHarness('dvir-large-fleet', { VISIBILITY_WALK_FROM_GROUPS: '2' });
  F = h.facts['fleet-core'];
  await copies(D.reports.r1, 30, '7a00aaaa-0000-4000-8000-');
  await copies(D.reports.r4, 10, '7a00bbbb-0000-4000-8000-');
  await copies(D.reports.r6, 5, '7a00cccc-0000-4000-8000-');
});
after(async () => h?.close());

/** Every page of inspectionReports (with `filter` arguments), and the count the first page gave. */
async function pageThrough(user: unknown, filter = ''): Promise<{ ids: string[]; count: number }> {
  const { items, count } = await allPages<{ id: string }>(async (pageId) => {
    const res: any = await h.as(user as never)(
      `query($p: ID) { inspectionReports(pageSize: 7, pageId: $p${filter}) { count list { id } next } }`,
      { p: pageId },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    return res.data.inspectionReports;
  });
  return { ids: items.map((r) => r.id), count };
}

/** What the visibility rule selects (the set form), in the list's order. */
async function expected(uid: string, vehicleId?: string): Promise<string[]> {
  const q = whereFleetVisible(
    h.knex,
    h.knex('dvir.inspection_reports as r').select('r.id'),
    'r',
    asViewer(uid),
    'set',
  );
  if (vehicleId) q.where('r.vehicle_id', vehicleId);
  const rows: Array<{ id: string }> = await q.orderBy('r.started_at', 'desc').orderBy('r.id', 'desc');
  return rows.map((r) => r.id);
}

test('a top-level member of a large fleet walks per row and pages through exactly the reports it sees', async () => {
  assert.equal((await rootListScope(h.knex, F.alice.uid, { walkFromGroups: 2 })).shape, 'per-row');
  const all = await expected(F.alice.uid);
  assert.ok(all.length >= 45, `control: alice sees the copies (${all.length})`);
  const seen = await pageThrough(F.alice);
  assert.deepEqual(seen.ids, all);
  assert.equal(seen.count, all.length);
});

test('a filter by vehicle reads by that vehicle and tests each row, with the same rows as the rule', async () => {
  const vehicle = F.vehicles.depot[0];
  const all = await expected(F.alice.uid, vehicle);
  assert.ok(all.length >= 30, `control: the depot vehicle's copies (${all.length})`);
  const seen = await pageThrough(F.alice, `, vehicleId: "${vehicle}"`);
  assert.deepEqual(seen.ids, all);
  assert.equal(seen.count, all.length);
});

test('a sub-group member of the same organization builds its set and pages through its own reports', async () => {
  assert.equal((await rootListScope(h.knex, F.bob.uid, { walkFromGroups: 2 })).shape, 'set');
  const all = await expected(F.bob.uid);
  assert.ok(all.length >= 30, `control: bob sees the depot's copies (${all.length})`);
  const seen = await pageThrough(F.bob);
  assert.deepEqual(seen.ids, all);
  assert.equal(seen.count, all.length);
});

test('a walked page reads about a page of reports, however many its organization has', async () => {
  await assertNoStatistics(h.knex, 'dvir', 'inspection_reports');
  const trx = await h.knex.transaction();
  try {
    // 5,000 more reports of alice's depot vehicle, each an hour apart (rolled back).
    await trx.raw(
      `insert into dvir.inspection_reports (id, organization_id, vehicle_id, group_id, template_id,
              template_version, workflow_status, status, inspection_type, started_at)
       select ('7a00dddd-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, r.organization_id, r.vehicle_id,
              r.group_id, r.template_id, r.template_version, r.workflow_status, r.status, r.inspection_type,
              r.started_at - n * interval '1 hour'
         from dvir.inspection_reports r, generate_series(1, 5000) n where r.id = ?`,
      [D.reports.r1],
    );
    const read = async (walkFromGroups: number, after: readonly unknown[] | null) => {
      const scope = () => rootListScope(trx, F.alice.uid, { walkFromGroups });
      const { base } = await reportList(trx, F.alice.uid, {}, scope);
      const page = (typeof base === 'function' ? base(after) : base)
        .select('r.id')
        .orderBy('r.started_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(51);
      const { sql, bindings } = page.toSQL();
      return rowsRead(await explainNodes(trx, sql, bindings, { analyze: true }), 'inspection_reports');
    };
    assert.equal((await rootListScope(trx, F.alice.uid, { walkFromGroups: 2 })).shape, 'per-row');
    assert.ok((await read(2, null)) <= 51, 'first page, walked');
    const later = await read(2, [new Date('2025-09-01T00:00:00Z'), '7a00dddd-0000-4000-8000-000000000001']);
    assert.ok(later <= 51, `a page far down, walked: ${later}`);
  } finally {
    await trx.rollback();
  }
});
