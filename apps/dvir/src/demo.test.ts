import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { scratchDir } from '@fleetgraph/testing';
import manifest from './manifest';
import { seedDvirDemo, dvirSeeded } from './demo/seed';
import { fileServiceFor } from './data/files/index';
import { loadDvirConfig } from './config';

let h: SubgraphHarness;
const filesDir = scratchDir('dvir-demo');
const now = new Date('2026-03-15T12:00:00.000Z');
before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'dvir-demo', env: { DVIR_FILES_DIR: filesDir } });
});
after(async () => h?.close());

test('the demo seed gives every vehicle months of reports with defects in every state', async () => {
  assert.equal(await dvirSeeded(h.knex), false);
  const lines: string[] = [];
  const files = fileServiceFor(loadDvirConfig({ DVIR_FILES_DIR: filesDir, PAGING_SECRET: 'x'.repeat(32) }));
  const result = await seedDvirDemo(
    h.knex,
    { now, log: (l) => lines.push(l), progress: false, scale: 1 },
    files,
  );
  assert.ok(result.counts!.reports! > 100, JSON.stringify(result));
  assert.equal(await dvirSeeded(h.knex), true);
  const vehicles = await h.knex('fleet_contract.vehicles_v1').count('* as n').first();
  const covered = await h.knex('dvir.inspection_reports').countDistinct('vehicle_id as n').first();
  assert.equal(Number(covered!.n), Number(vehicles!.n));
  const states = (await h.knex('dvir.defects').distinct('status')).map((r) => r.status).sort();
  assert.deepEqual(states, ['DRAFT', 'IN_REPAIR', 'NOT_NEEDING_REPAIR', 'OPEN', 'RESOLVED']);
  const resolutions = (await h.knex('dvir.defects').distinct('resolution').whereNotNull('resolution'))
    .map((r) => r.resolution)
    .sort();
  assert.deepEqual(resolutions, ['BY_MECHANIC', 'BY_USER', 'IN_LATER_REPORT']);
  const types = (await h.knex('dvir.inspection_reports').distinct('inspection_type'))
    .map((r) => r.inspection_type)
    .sort();
  assert.deepEqual(types, ['PERIODIC', 'POST_TRIP', 'PRE_TRIP']);
  const statuses = (await h.knex('dvir.inspection_reports').distinct('status')).map((r) => r.status).sort();
  assert.deepEqual(statuses, ['OUT_OF_SERVICE', 'PENDING', 'VALIDATED', 'WITH_DEFECTS']);
  const versions = await h
    .knex('dvir.inspection_reports')
    .countDistinct({ n: h.knex.raw("template_id::text || ':' || template_version") })
    .first();
  assert.ok(Number(versions!.n) >= 4);
  const languages = (await h.knex('dvir.inspection_templates').distinct('default_language'))
    .map((r) => r.default_language)
    .sort();
  assert.ok(languages.length >= 2, languages.join());
  const kinds = (await h.knex('dvir.attachments').distinct('kind', 'content_type'))
    .map((r) => `${r.kind}:${r.content_type}`)
    .sort();
  assert.deepEqual(kinds, ['PHOTO:image/jpeg', 'SIGNATURE:image/png', 'WALKAROUND:image/jpeg']);
  // Every stored attachment's bytes are there, with the recorded size.
  const sample = await h.knex('dvir.attachments').distinct('storage_key', 'byte_size');
  for (const row of sample) {
    const bytes = await files.storage.get(row.storage_key);
    assert.equal(bytes?.byteLength, row.byte_size);
  }
  // A resolved defect's resolvedAt comes after it was reported.
  const bad = await h.knex('dvir.defects').whereRaw('resolved_at < created_at').count('* as n').first();
  assert.equal(Number(bad!.n), 0);
  const alice = h.as(h.facts['fleet-core'].alice);
  const res = await alice(
    `{ inspectionReports(pageSize: 5) { count list { id inspectionAnswers(locale: NL) { list { itemName resultLabel } } } } }`,
  );
  assert.equal(res.errors, undefined);
  assert.ok(res.data.inspectionReports.count > 0);
  assert.ok(
    res.data.inspectionReports.list[0].inspectionAnswers.list.every((a: any) => a.itemName && a.resultLabel),
  );
});

/** Every dvir row the demo writes, as one digest per table (timestamps of the write excluded). */
async function demoDigest(knex: SubgraphHarness['knex']): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  for (const table of [
    'inspection_templates',
    'inspection_reports',
    'inspection_answers',
    'defects',
    'attachments',
  ]) {
    const { rows } = await knex.raw(
      `select count(*)::int as n,
              md5(string_agg((to_jsonb(t) - 'created_at' - 'updated_at')::text, '|'
                  order by (to_jsonb(t) - 'created_at' - 'updated_at')::text)) as md5
         from dvir.${table} t`,
    );
    digest[table] = `${rows[0].n} ${rows[0].md5}`;
  }
  return digest;
}

test('the demo written in small batches is row for row the demo written at once (memory stays flat at any scale)', async () => {
  const files = fileServiceFor(loadDvirConfig({ DVIR_FILES_DIR: filesDir, PAGING_SECRET: 'x'.repeat(32) }));
  const empty = () =>
    h.knex.raw(
      'truncate dvir.attachments, dvir.defects, dvir.inspection_answers, dvir.inspection_reports, dvir.inspection_templates cascade',
    );
  const seed = async (flushReports: number) => {
    await empty();
    const lines: string[] = [];
    await seedDvirDemo(h.knex, { now, log: (l) => lines.push(l), progress: true, scale: 1 }, files, {
      flushReports,
    });
    return {
      digest: await demoDigest(h.knex),
      writes: lines.filter((l) => / reports for \d+\/\d+ vehicles$/.test(l)),
    };
  };
  const batched = await seed(50);
  const whole = await seed(Number.POSITIVE_INFINITY);
  assert.ok(Number(whole.digest.inspection_reports!.split(' ')[0]) > 100, JSON.stringify(whole.digest));
  assert.ok(
    batched.writes.length >= 5,
    `written in ${batched.writes.length} batches: ${batched.writes.join('; ')}`,
  );
  assert.equal(whole.writes.length, 1);
  assert.deepEqual(batched.digest, whole.digest);
});
