/**
 * Detection's previous-fill statement keeps its plan without table statistics (autovacuum off):
 * each transaction's 3 previous fills are the first 3 entries of transactions_previous_fill_idx,
 * never every earlier transaction of the vehicle fetched and sorted (a bitmap scan whose cost grew
 * with the vehicle's history: 1.2 s to 2.5 s per chunk of 2,000 at 1M transactions). Proven on
 * 20,000 transactions of one vehicle, in both energy classes, and no ANALYZE.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { assertNoStatistics, explainNodes } from '@fleetgraph/testing';
import manifest from '../../manifest';
import { PREVIOUS_FILLS } from './engine';

let h: SubgraphHarness;
let ids: string[];

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_detection_plan' });
  const F = h.facts['fleet-core'];
  await h.knex.raw(
    `insert into mobility.transactions (organization_id, transacted_at, quantity, quantity_unit, energy_type,
       product_category, transaction_type, source, vehicle_id, created_at, updated_at)
     select ?::uuid, timestamptz '2026-01-01' + g * interval '10 minutes', 30,
            case when g % 5 = 0 then 'KWH' else 'L' end, case when g % 5 = 0 then 'ELECTRIC' else 'DIESEL' end,
            case when g % 5 = 0 then 'ELECTRICITY' else 'DIESEL' end, case when g % 5 = 0 then 'CHARGE' else 'REFILL' end,
            'FUEL_CARD', ?::uuid, now(), now()
       from generate_series(1, 20000) g`,
    [F.orgA, F.vehicles.depot[0]],
  );
  const newest = await h
    .knex('mobility.transactions')
    .select('id')
    .orderBy('transacted_at', 'desc')
    .limit(500);
  ids = newest.map((row: { id: string }) => row.id);
  await assertNoStatistics(h.knex, 'mobility', 'transactions');
});
after(() => h?.close());

test('the previous fills are read in index order, 3 entries per transaction, whatever the statistics', async () => {
  const all = await explainNodes(h.knex, PREVIOUS_FILLS, [ids]);
  const previous = all.filter((node) => node.Alias === 'q');
  assert.equal(previous.length, 1, JSON.stringify(all.map((n) => n['Node Type'])));
  assert.equal(previous[0]!['Node Type'], 'Index Scan', JSON.stringify({ ...previous[0], Plans: undefined }));
  assert.equal(previous[0]!['Index Name'], 'transactions_previous_fill_idx');
  assert.ok(!all.some((node) => node['Node Type'] === 'Sort'), 'no sort of earlier transactions');
});

test('the statement answers each transaction its 3 previous fills of the same energy class', async () => {
  const rows = (await h.knex.raw(PREVIOUS_FILLS, [ids.slice(0, 10)])).rows as Array<{
    txId: string;
    id: string;
    rank: string;
  }>;
  const expected = await h.knex.raw(
    `select t.id as tx, q.id, row_number() over (partition by t.id order by q.transacted_at desc, q.id desc) as rank
       from mobility.transactions t join mobility.transactions q
         on q.vehicle_id = t.vehicle_id and q.transacted_at < t.transacted_at
        and (q.energy_type = 'ELECTRIC') = (t.energy_type = 'ELECTRIC')
      where t.id = any(?::uuid[])`,
    [ids.slice(0, 10)],
  );
  const want = expected.rows
    .filter((r: { rank: string }) => Number(r.rank) <= 3)
    .map((r: { tx: string; id: string; rank: string }) => `${r.tx} ${r.id} ${Number(r.rank)}`)
    .sort();
  assert.equal(want.length, 30, 'control: 10 transactions with 3 previous fills each');
  assert.deepEqual(rows.map((r) => `${r.txId} ${r.id} ${Number(r.rank)}`).sort(), want);
});
