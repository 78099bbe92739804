/**
 * maintenance.service_summaries stays equal to the aggregate of maintenance.history through every
 * kind of write (migration 20261126_002): inserts in several statements and out of order, ties on
 * done_at broken by id, updates that move a service to another pair, deletes of the last service
 * and of a pair's only one, truncate, and two transactions inserting into the same pair at once;
 * each row's summary_json (migration 003) stays its values encoded. Its read keeps a primary-key plan on a table without statistics.
 */
import assert from 'node:assert/strict';
import { asViewer } from '@fleetgraph/auth';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { assertNoStatistics, commitWhileSecondWaits, explainNodes } from '@fleetgraph/testing';
import manifest from './manifest';
import { M, NOW, seedMaintenanceFixture } from './testing/fixture';
import { vehicleFacts, vehicleFactsQuery } from './data/tables';

let h: SubgraphHarness;
let vehicles: string[];
let alice: string;

before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'maintenance_summaries',
    seed: (knex, facts) => seedMaintenanceFixture(knex, facts['fleet-core']),
  });
  const F = h.facts['fleet-core'];
  vehicles = [F.vehicles.depot[0], F.vehicles.depot[1]];
  alice = F.alice.uid;
});
after(() => h?.close());

/** The summaries as the migration's reference aggregate would compute them now. */
async function expected(): Promise<string[]> {
  const { rows } = await h.knex.raw(`
    select vehicle_id, template_id, count(*)::int as services,
           (array_agg(id order by done_at desc, id desc))[1] as last_id,
           max(done_at) as last_done_at,
           (array_agg(mileage_km order by done_at desc, id desc))[1] as last_mileage_km,
           max(mileage_km) as max_mileage_km
      from maintenance.history group by vehicle_id, template_id`);
  return lines(rows);
}

async function stored(): Promise<string[]> {
  return lines(await h.knex('maintenance.service_summaries').select('*'));
}

const lines = (rows: Array<Record<string, unknown>>) =>
  rows
    .map((r) =>
      [
        r.vehicle_id,
        r.template_id,
        r.services,
        r.last_id,
        (r.last_done_at as Date).toISOString(),
        r.last_mileage_km,
        r.max_mileage_km,
      ].join(' '),
    )
    .sort();

async function assertInStep(step: string): Promise<void> {
  const want = await expected();
  assert.deepEqual(await stored(), want, step);
  await assertTuplesEncoded(step);
}

/** Every stored summary_json (migration 003) is its row as the tuple the facts statement sends. */
async function assertTuplesEncoded(step: string): Promise<void> {
  const rows = await h.knex('maintenance.service_summaries').select('*');
  assert.ok(rows.length > 0, `${step}: control, there are summaries`);
  for (const r of rows) {
    const tuple = [r.template_id, r.services, r.last_mileage_km, r.last_done_at.getTime(), r.max_mileage_km];
    assert.deepEqual(JSON.parse(r.summary_json), tuple, `${step}: ${r.summary_json}`);
  }
}

const service = (vehicle: string, template: string, doneAt: string, mileage: number, id = randomUUID()) => ({
  id,
  vehicle_id: vehicle,
  template_id: template,
  done_at: doneAt,
  mileage_km: mileage,
});

test('the summaries follow every insert, update, delete and truncate of the history', async () => {
  const [v1, v2] = vehicles as [string, string];
  const { tires, oil } = M.templates;
  await assertInStep('after the fixture and the migration');
  assert.ok((await stored()).length > 0, 'control: the fixture has services');

  await h
    .knex('maintenance.history')
    .insert([
      service(v1, tires, '2026-01-10T00:00:00Z', 9000),
      service(v1, tires, '2026-02-10T00:00:00Z', 9500),
    ]);
  await assertInStep('one statement, two services');
  // An older service arrives later: the last stays the newest, the count and maximum move.
  await h.knex('maintenance.history').insert(service(v1, tires, '2025-06-01T00:00:00Z', 12000));
  await assertInStep('an older service with a higher mileage, inserted afterwards');
  // The same instant: the higher id is the last (done_at desc, id desc).
  const tie = '2026-02-10T00:00:00Z';
  await h
    .knex('maintenance.history')
    .insert([
      service(v2, oil, tie, 100, 'ffffffff-0000-4000-8000-000000000001'),
      service(v2, oil, tie, 200, '00000000-0000-4000-8000-000000000001'),
    ]);
  await assertInStep('a tie on done_at');
  await h
    .knex('maintenance.history')
    .insert(service(v2, oil, tie, 300, '88888888-0000-4000-8000-000000000001'));
  await assertInStep('a tie on done_at with a middle id, in a later statement');

  await h
    .knex('maintenance.history')
    .where({ vehicle_id: v1, template_id: tires })
    .update({ template_id: oil });
  await assertInStep('services moved to another template');
  const newest = await h
    .knex('maintenance.history')
    .where({ vehicle_id: v1, template_id: oil })
    .orderBy([
      { column: 'done_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('id');
  await h.knex('maintenance.history').where({ id: newest.id }).delete();
  await assertInStep('the last service deleted');
  await h.knex('maintenance.history').where({ vehicle_id: v2 }).delete();
  await assertInStep('every service of a vehicle deleted: its pairs are gone');
  assert.ok(!(await stored()).some((line) => line.startsWith(v2)), 'no summary left for the vehicle');

  await h.knex.raw('truncate maintenance.history');
  assert.deepEqual(await stored(), [], 'truncate empties the summaries');
  await h.knex('maintenance.history').insert(service(v1, oil, '2026-03-01T00:00:00Z', 5));
  await assertInStep('a service after the truncate');
});

test('two transactions inserting into the same pair at once lose no service', async () => {
  const [v1] = vehicles as [string];
  const { brakes } = M.templates;
  const before = await h.knex('maintenance.service_summaries').where({ vehicle_id: v1, template_id: brakes });
  // B's trigger waits on A's summary row (or A's speculative insert of it) until A commits.
  await commitWhileSecondWaits(
    h.knex,
    (trx) => trx('maintenance.history').insert(service(v1, brakes, '2026-03-02T00:00:00Z', 700)),
    (trx) => trx('maintenance.history').insert(service(v1, brakes, '2026-03-03T00:00:00Z', 650)),
  );
  const [row] = await h.knex('maintenance.service_summaries').where({ vehicle_id: v1, template_id: brakes });
  assert.equal(row.services, (before[0]?.services ?? 0) + 2);
  assert.equal(row.last_mileage_km, 650, 'the later service is the last');
  await assertInStep('after two concurrent inserts');
});

test('summaries are read by primary key per vehicle, whatever the statistics', async () => {
  await h.knex.raw(
    `insert into maintenance.history (id, vehicle_id, template_id, mileage_km, done_at)
     select gen_random_uuid(), gen_random_uuid(), ?::uuid, g, timestamptz '2026-01-01' + g * interval '1 minute'
       from generate_series(1, 100000) g`,
    [M.templates.oil],
  );
  await assertNoStatistics(h.knex, 'maintenance', 'service_summaries');
  // Alice sees the whole fleet; the facts statement must probe the 100,000 summaries per vehicle.
  const { sql, bindings } = vehicleFactsQuery(h.knex, asViewer(alice), {}, new Date(NOW)).toSQL();
  const nodes = await explainNodes(h.knex, sql, bindings, { analyze: true });
  const summaries = nodes.filter((node) => node['Relation Name'] === 'service_summaries');
  assert.equal(summaries.length, 1, JSON.stringify(nodes.map((n) => n['Node Type'])));
  assert.notEqual(summaries[0]!['Node Type'], 'Seq Scan');
  assert.ok(
    nodes.some((node) => node['Index Name'] === 'service_summaries_pkey'),
    JSON.stringify(summaries[0]),
  );
  assert.ok((summaries[0]!['Actual Loops'] ?? 0) >= 2, 'probed once per vehicle');
  const facts = await vehicleFacts(h.knex, asViewer(alice), {}, new Date(NOW));
  const answered = facts.reduce((sum, v) => sum + v.services.length, 0);
  const own = await h
    .knex('maintenance.service_summaries')
    .whereIn(
      'vehicle_id',
      facts.map((v) => v.id),
    )
    .count('* as n')
    .first();
  assert.ok(answered > 0, 'control: the fleet has summaries');
  assert.equal(answered, Number(own?.n), 'every summary of the fleet, none of the 100,000 others');
});
