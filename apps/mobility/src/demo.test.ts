/**
 * The demo seed over a fleet with months of trips: transactions consistent with the trips, frauds
 * of every rule planted; detection finds every planted fraud (recall 100 %) and flags under 2 %
 * of the honest transactions. Prints precision and recall.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { RULE_CODES } from './domain/detection/rules';
import manifest from './manifest';
import { loadDemoFleet } from './testing/demo-fleet';

let h: SubgraphHarness;
const NOW = new Date('2026-06-01T00:00:00Z');

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_demo' });
  await loadDemoFleet(h.knex, h.facts['fleet-core'], NOW);
});
after(() => h.close());

test('planted frauds: recall 100 %, false positives under 2 % of honest transactions', async () => {
  const logs: string[] = [];
  assert.equal(await manifest.demoData!.isSeeded(h.knex), false);
  await manifest.demoData!.seed(h.knex, { log: (l) => logs.push(l), progress: false, now: NOW, scale: 1 });
  assert.equal(await manifest.demoData!.isSeeded(h.knex), true);
  const { rows } = await h.knex.raw(`
    select t.id, t.planted_fraud,
           coalesce(array_agg(a.code) filter (where a.code is not null), '{}') as codes
      from mobility.transactions t left join mobility.anomalies a on a.transaction_id = t.id
     group by t.id, t.planted_fraud`);
  const planted = rows.filter((r: any) => r.planted_fraud);
  const honest = rows.filter((r: any) => !r.planted_fraud);
  const found = planted.filter((r: any) => r.codes.includes(r.planted_fraud));
  const flaggedHonest = honest.filter((r: any) => r.codes.length > 0);
  const flaggedPlanted = planted.filter((r: any) => r.codes.length > 0);
  const recall = found.length / planted.length;
  const precision = flaggedPlanted.length / (flaggedPlanted.length + flaggedHonest.length);
  const byCode = new Map<string, number>();
  for (const r of planted) byCode.set(r.planted_fraud, (byCode.get(r.planted_fraud) ?? 0) + 1);
  console.log(
    `mobility demo: ${rows.length} transactions, ${planted.length} planted (${[...byCode].map(([c, n]) => `${c} ${n}`).join(', ')}); ` +
      `recall ${(recall * 100).toFixed(1)} %, precision ${(precision * 100).toFixed(1)} %, ` +
      `honest flagged ${flaggedHonest.length}/${honest.length} (${((flaggedHonest.length / honest.length) * 100).toFixed(2)} %)`,
  );
  if (flaggedHonest.length) console.log(JSON.stringify(flaggedHonest.slice(0, 5)));
  const missed = planted.filter((r: any) => !r.codes.includes(r.planted_fraud));
  assert.deepEqual(missed, [], 'every planted fraud is found with its code');
  assert.ok(rows.length > 500, `months of transactions (${rows.length})`);
  for (const code of RULE_CODES) assert.ok((byCode.get(code) ?? 0) > 0, `${code} planted`);
  assert.ok(flaggedHonest.length / honest.length < 0.02, 'under 2 % of honest transactions flagged');
});
