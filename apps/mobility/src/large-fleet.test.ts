/**
 * The root list of anomalies of an account that sees a large fleet walks its organization's
 * anomalies in detection order and tests each row (libs/visibility rootListScope,
 * visibleInOrder). Here the walk starts at 2 visible groups (VISIBILITY_WALK_FROM_GROUPS), so
 * alice, a member of Acme's top-level group (4 groups), walks; bob (a sub-group) builds his set.
 * Pages must list exactly what the visibility rule selects, in the list's order, both ways.
 */
import { after, before, test } from 'node:test';
import { asViewer } from '@fleetgraph/auth';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { allPages } from '@fleetgraph/testing';
import { rootListScope } from '@fleetgraph/visibility';
import { whereVisible } from './data/visibility';
import manifest from './manifest';
import { loadDataset } from './testing/dataset';
import { ANOMALIES_QUERY, prepareAnomalies } from './testing/filter-cases';

let h: SubgraphHarness;
let F: any;

before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'mobility_large_fleet',
    env: { VISIBILITY_WALK_FROM_GROUPS: '2' },
  });
  F = h.facts['fleet-core'];
  await loadDataset(h.knex, F);
  await prepareAnomalies(h.knex, F);
});
after(() => h.close());

/** Every page of the list (pages of 3), and the count the first page gave. */
async function pageThrough(user: unknown, variables: Record<string, unknown>) {
  const { items, count } = await allPages<{ id: string }>(async (pageId) => {
    const res: any = await h.as(user as never)(ANOMALIES_QUERY, {
      pageSize: 3,
      ...variables,
      ...(pageId ? { pageId } : {}),
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    return res.data.mobilityTransactionAnomalies;
  });
  return { ids: items.map((a) => a.id), count };
}

/** What the visibility rule selects (the set form), in detection order. */
async function expected(uid: string, direction: 'asc' | 'desc', vehicleId?: string): Promise<string[]> {
  const q = whereVisible(h.knex, h.knex('mobility.anomalies as a').select('a.id'), 'a', asViewer(uid), 'set');
  if (vehicleId) q.where('a.vehicle_id', vehicleId);
  const rows: Array<{ id: string }> = await q.orderBy('a.detected_at', direction).orderBy('a.id', direction);
  return rows.map((r) => r.id);
}

test('a top-level member of a large fleet walks per row, newest first and oldest first, through exactly what it sees', async () => {
  assert.equal((await rootListScope(h.knex, F.alice.uid, { walkFromGroups: 2 })).shape, 'per-row');
  for (const [sort, direction] of [
    ['DETECTED_AT_DESC', 'desc'],
    ['DETECTED_AT_ASC', 'asc'],
  ] as const) {
    const all = await expected(F.alice.uid, direction);
    assert.ok(all.length >= 7, `control: alice sees several pages of anomalies (${all.length})`);
    const seen = await pageThrough(F.alice, { sort: [sort] });
    assert.deepEqual(seen.ids, all, sort);
    assert.equal(seen.count, all.length);
  }
});

test('a filter by vehicle tests each of its rows, with the same rows as the rule', async () => {
  const vehicle = F.vehicles.depot[0];
  const all = await expected(F.alice.uid, 'desc', vehicle);
  assert.ok(all.length >= 4, `control: the depot vehicle's anomalies (${all.length})`);
  const seen = await pageThrough(F.alice, { vehicleId: [vehicle] });
  assert.deepEqual(seen.ids, all);
  assert.equal(seen.count, all.length);
});

test('a sub-group member of the same organization builds its set and pages through its own anomalies', async () => {
  assert.equal((await rootListScope(h.knex, F.bob.uid, { walkFromGroups: 2 })).shape, 'set');
  const all = await expected(F.bob.uid, 'desc');
  assert.ok(all.length >= 4, `control: bob sees the depot's anomalies (${all.length})`);
  const seen = await pageThrough(F.bob, {});
  assert.deepEqual(seen.ids, all);
  assert.equal(seen.count, all.length);
});
