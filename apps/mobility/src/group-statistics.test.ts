/**
 * Kept group statistics (migration 004): after the demo seed, an import, detection, corrections
 * (quantity, price, product, time moved to another month, a total removed), deletions and new
 * anomalies, the kept rows equal a computation from the transactions and anomalies, and
 * Group.mobilityTransactionStatistics answers what the transactions of the group and its
 * descendants give, and the distance their vehicles' trips give, for ranges with partial days and
 * months at either edge, every period and both groupings. Time is injected (NOW), never read from the clock.
 */
import { after, before, test } from 'node:test';
import type { Knex } from 'knex';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { scratchDir } from '@fleetgraph/testing';
import { CursorCodec } from '@fleetgraph/paging';
import { groupPageLoader } from './data/group-pages';
import { rangePieces, statisticsLoader, type Period, type TransactionStatisticRow } from './data/statistics';
import { detectTransactions } from './domain/detection/engine';
import { TRANSACTION_SPEC } from './data/tables';
import manifest from './manifest';
import { loadDataset } from './testing/dataset';
import { loadDemoFleet } from './testing/demo-fleet';

let h: SubgraphHarness;
let F: any;
const NOW = new Date('2026-06-01T00:00:00Z');

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_group_statistics' });
  F = h.facts['fleet-core'];
  await loadDemoFleet(h.knex, F, NOW, 6, 90);
  await manifest.demoData!.seed(h.knex, { log: () => {}, progress: false, now: NOW, scale: 1 });
  await loadDataset(h.knex, F);
});
after(() => h.close());

/** The kept rows as they should be: computed from the transactions and the anomalies table. */
const FROM_TRANSACTIONS = `
  with t as (
    select t.*, (select count(*) from mobility.anomalies a where a.transaction_id = t.id) as anomalies
      from mobility.transactions t where t.group_id is not null
  )
  select group_id, level, period_start, product_category, energy_type, quantity_unit, currency,
         count(*)::text as transactions, sum(quantity::numeric)::text as quantity,
         coalesce(sum(net_total::numeric), 0)::text as net_total, coalesce(sum(gross_total::numeric), 0)::text as gross_total,
         coalesce(sum(quantity::numeric) filter (where net_total is not null), 0)::text as net_quantity,
         coalesce(sum(quantity::numeric) filter (where gross_total is not null), 0)::text as gross_quantity,
         (count(*) filter (where net_total is not null))::text as net_transactions,
         (count(*) filter (where gross_total is not null))::text as gross_transactions,
         sum(anomalies)::text as anomalies
    from (select t.*, 'D' as level, date_trunc('day', transacted_at at time zone 'UTC') at time zone 'UTC' as period_start from t
          union all
          select t.*, 'M', date_trunc('month', transacted_at at time zone 'UTC') at time zone 'UTC' from t) x
   group by 1, 2, 3, 4, 5, 6, 7
   order by 1, 2, 3, 4, 5, 6, 7`;
const KEPT = `
  select group_id, level, period_start, product_category, energy_type, quantity_unit, currency,
         transactions::text, quantity::text, net_total::text, gross_total::text, net_quantity::text,
         gross_quantity::text, net_transactions::text, gross_transactions::text, anomalies::text
    from mobility.group_transaction_statistics
   order by 1, 2, 3, 4, 5, 6, 7`;

async function assertKeptExact(when: string) {
  const want = (await h.knex.raw(FROM_TRANSACTIONS)).rows;
  const got = (await h.knex.raw(KEPT)).rows;
  assert.ok(want.length > 0);
  // numeric sums: equal as numbers whatever their scale ("40.0" and "40")
  const norm = (rows: any[]) =>
    rows.map((r) =>
      Object.entries(r).map(([k, v]) =>
        v instanceof Date
          ? v.toISOString()
          : typeof v === 'string' && k !== 'currency' && /^-?[\d.]+$/.test(v)
            ? Number(v)
            : v,
      ),
    );
  assert.deepEqual(norm(got), norm(want), `kept rows after ${when}`);
}

/** What the statistics were before rows were kept: every transaction of the group's descendants read. */
async function fromTransactions(
  groupId: string,
  range: { from: Date; to: Date; period: Period },
  groupBy: 'PRODUCT_CATEGORY' | 'ENERGY_TYPE',
) {
  const dim = groupBy === 'PRODUCT_CATEGORY' ? 'product_category' : 'energy_type';
  const bucket =
    range.period === 'TOTAL'
      ? '?::timestamptz'
      : `(date_trunc('${range.period.toLowerCase()}', t.transacted_at at time zone 'UTC') at time zone 'UTC')`;
  const { rows } = await h.knex.raw(
    `select ${bucket} as period_start, t.${dim} as dim, t.quantity_unit, t.currency, count(*)::int as n,
            sum(t.quantity)::float8 as quantity, coalesce(sum(t.gross_total), 0)::float8 as gross_total,
            coalesce(sum(t.net_total), 0)::float8 as net_total,
            sum(t.quantity) filter (where t.gross_total is not null)::float8 as gross_quantity,
            sum((select count(*) from mobility.anomalies a where a.transaction_id = t.id))::int as anomalies
       from mobility.transactions t
      where t.group_id in (select descendant_id from fleet_contract.group_ancestors_v1 where ancestor_id = ?)
        and t.transacted_at >= ? and t.transacted_at < ?
      group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    [...(range.period === 'TOTAL' ? [range.from] : []), groupId, range.from, range.to],
  );
  return rows as Array<Record<string, any>>;
}

/** The distance of a group's vehicles (each once) per period, from every trip started in the range. */
async function distanceFromTrips(groupId: string, range: { from: Date; to: Date; period: Period }) {
  const bucket =
    range.period === 'TOTAL'
      ? '?::timestamptz'
      : `(date_trunc('${range.period.toLowerCase()}', tr.started_at at time zone 'UTC') at time zone 'UTC')`;
  const { rows } = await h.knex.raw(
    `select ${bucket} as period_start, sum(tr.distance_m)::float8 / 1000 as km
       from fleet_contract.trips_v1 tr
      where tr.vehicle_id in (select gv.vehicle_id from fleet_contract.group_vehicles_v1 gv
                                join fleet_contract.group_ancestors_v1 ga on ga.descendant_id = gv.group_id
                               where ga.ancestor_id = ?)
        and tr.started_at >= ? and tr.started_at < ?
      group by 1`,
    [...(range.period === 'TOTAL' ? [range.from] : []), groupId, range.from, range.to],
  );
  return new Map(
    (rows as Array<Record<string, any>>).map((r) => [new Date(r.period_start).toISOString(), r.km]),
  );
}

const close = (a: number | null, b: number | null) =>
  a === b || (a !== null && b !== null && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)));

async function assertAnswers(when: string) {
  const at = (iso: string) => new Date(iso);
  const ranges: Array<{ from: Date; to: Date; period: Period }> = [];
  const edges = [
    ['2026-03-01T00:00:00Z', '2026-06-01T00:00:00Z'], // whole months
    ['2026-02-10T00:00:00Z', '2026-05-20T00:00:00Z'], // partial months, whole days
    ['2026-03-04T13:17:00Z', '2026-05-28T21:40:00Z'], // partial days (late start, late end)
    ['2026-03-04T02:00:00Z', '2026-05-28T03:30:00Z'], // partial days (early start, early end)
    ['2025-06-01T00:00:00Z', '2026-05-31T18:45:12.345Z'], // a year ending "now", mid-day
    ['2026-03-09T06:00:00Z', '2026-03-09T20:00:00Z'], // inside one day
    ['2026-03-09T06:00:00Z', '2026-03-10T20:00:00Z'], // two partial days, no whole day
    ['2026-04-02T00:00:00Z', '2026-04-29T00:00:00Z'], // most of a month
  ];
  for (const [from, to] of edges)
    for (const period of ['DAY', 'WEEK', 'MONTH', 'TOTAL'] as const) {
      const range = { from: at(from!), to: at(to!), period };
      if (period === 'DAY' && (range.to.getTime() - range.from.getTime()) / 86_400_000 > 400) continue;
      ranges.push(range);
    }
  const groups = [F.groups.hq, F.groups.north, F.groups.depot, F.groups.south];
  for (const range of ranges)
    for (const groupBy of ['PRODUCT_CATEGORY', 'ENERGY_TYPE'] as const) {
      const loader = statisticsLoader(h.knex, () => NOW);
      const got = (await Promise.all(
        groups.map((parentId) =>
          loader.load({ kind: 'group', what: 'transactions', parentId, args: { ...range, groupBy } }),
        ),
      )) as TransactionStatisticRow[][];
      for (const [i, groupId] of groups.entries()) {
        const want = await fromTransactions(groupId, range, groupBy);
        const km = await distanceFromTrips(groupId, range);
        const label = `${when}: ${groupId} ${range.period} ${range.from.toISOString()}..${range.to.toISOString()} ${groupBy}`;
        const rows = got[i]!;
        assert.equal(rows.length, want.length, label);
        rows.forEach((r, j) => {
          const w = want[j]!;
          assert.equal(r.periodStart.toISOString(), new Date(w.period_start).toISOString(), label);
          assert.equal(groupBy === 'PRODUCT_CATEGORY' ? r.productCategory : r.energyType, w.dim, label);
          assert.deepEqual(
            [r.quantityUnit, r.currency, r.transactionCount, r.anomaliesCount],
            [w.quantity_unit, w.currency, w.n, w.anomalies],
          );
          assert.ok(close(r.quantity, w.quantity), `${label}: quantity ${r.quantity} ${w.quantity}`);
          assert.ok(close(r.grossTotal, w.gross_total), `${label}: gross ${r.grossTotal} ${w.gross_total}`);
          assert.ok(close(r.netTotal, w.net_total), label);
          const distance = km.get(r.periodStart.toISOString()) ?? 0;
          assert.ok(close(r.distanceKm, distance), `${label}: distance ${r.distanceKm} ${distance}`);
          const avg = w.gross_quantity ? w.gross_total / w.gross_quantity : null;
          assert.ok(
            close(r.averageGrossUnitPrice, avg),
            `${label}: average ${r.averageGrossUnitPrice} ${avg}`,
          );
        });
      }
    }
}

test('a range is cut into whole months, whole days and partial days, each inside one period, merged into few ranges', () => {
  const pieces = rangePieces({
    from: new Date('2026-02-10T13:00:00Z'),
    to: new Date('2026-05-31T18:45:00Z'),
    period: 'MONTH',
  });
  assert.deepEqual(
    pieces.map((p) => `${p.sign > 0 ? '+' : '-'}${p.source} ${p.from.toISOString()} ${p.to.toISOString()}`),
    [
      '+T 2026-02-10T13:00:00.000Z 2026-02-11T00:00:00.000Z',
      '-T 2026-05-31T18:45:00.000Z 2026-06-01T00:00:00.000Z',
      '+M 2026-02-01T00:00:00.000Z 2026-06-01T00:00:00.000Z',
      '-D 2026-02-01T00:00:00.000Z 2026-02-11T00:00:00.000Z',
    ],
  );
});

test('kept rows equal the transactions after seed, import, corrections, deletions and detection; answers unchanged', async () => {
  await assertKeptExact('the demo seed');
  await assertAnswers('the demo seed');

  // An import (validated, inserted in one transaction, detection after).
  const file = join(scratchDir('mobility-group-statistics'), 'import.csv');
  await writeFile(
    file,
    [
      'transactedAt,quantity,quantityUnit,productCategory,transactionType,vehiclePlate,grossUnitPrice,grossTotal,currency,stationPostalCode,externalId,odometerKm',
      '2026-03-31T23:59:59.999Z,35.5,L,DIESEL,REFILL,AB-101-CD,1.70,60.35,EUR,20095,G-1,90000',
      '2026-04-01T00:00:00.000Z,300,L,DIESEL,REFILL,AB-101-CD,1.70,510,EUR,20095,G-2,90070',
      '2026-05-31T20:00:00.000Z,12.25,L,ADBLUE,PURCHASE,AB-101-CD,,,,20095,G-3,',
    ].join('\n'),
  );
  const outcome = await manifest.importers!.transactions!.run(h.knex, file, {
    log: () => {},
    now: NOW,
    options: { 'external-source': 'GROUPSTATS' },
  });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  await assertKeptExact('an import');

  // Corrections: quantities and prices, a product, a time moved to another month, a total removed.
  const some = (await h.knex('mobility.transactions').whereNotNull('group_id').orderBy('id').limit(40)).map(
    (r: any) => r.id,
  );
  await h
    .knex('mobility.transactions')
    .whereIn('id', some.slice(0, 10))
    .update({ quantity: 41.3, gross_total: 70.21 });
  await h
    .knex('mobility.transactions')
    .whereIn('id', some.slice(10, 15))
    .update({ product_category: 'ADBLUE' });
  await h
    .knex('mobility.transactions')
    .whereIn('id', some.slice(15, 20))
    .update({ transacted_at: h.knex.raw(`transacted_at - interval '17 days'`) });
  await h
    .knex('mobility.transactions')
    .whereIn('id', some.slice(20, 25))
    .update({ net_total: null, currency: null });
  await h
    .knex('mobility.transactions')
    .whereIn('id', some.slice(25, 30))
    .update({ group_id: F.groups.south });
  await assertKeptExact('corrections');

  // Deletions (their anomalies go with them), then detection of the corrected transactions.
  await h.knex('mobility.transactions').whereIn('id', some.slice(30, 40)).del();
  await detectTransactions(h.knex, some.slice(0, 30), { now: NOW });
  await assertKeptExact('deletions and detection');
  await assertAnswers('every change');
});

const GROUP_PAGES = {
  mobilityTransactions: `query($r: [_Any!]!, $pageId: ID, $before: DateTime) { _entities(representations: $r) { ... on Group {
    mobilityTransactions(pageSize: 4, pageId: $pageId, transactedAtBefore: $before) { count next list { id } } } } }`,
  mobilityTransactionAnomalies: `query($r: [_Any!]!, $pageId: ID, $active: Boolean) { _entities(representations: $r) { ... on Group {
    mobilityTransactionAnomalies(pageSize: 4, pageId: $pageId, active: $active) { count next list { id } } } } }`,
};

test('a group page is the first rows of its descendants pages merged: every page in order, cursors and counts as before', async () => {
  for (const group of [F.groups.hq, F.groups.north, F.groups.depot, F.groups.south]) {
    for (const [field, sql, variables] of [
      [
        'mobilityTransactions',
        `select id from mobility.transactions where group_id in (select descendant_id from fleet_contract.group_ancestors_v1 where ancestor_id = ?)
           and transacted_at < '2026-05-01' order by transacted_at desc, id desc`,
        { before: '2026-05-01T00:00:00Z' },
      ],
      [
        'mobilityTransactionAnomalies',
        `select id from mobility.anomalies where group_id in (select descendant_id from fleet_contract.group_ancestors_v1 where ancestor_id = ?)
           and active order by detected_at desc, id desc`,
        { active: true },
      ],
    ] as const) {
      const want = (await h.knex.raw(sql, [group])).rows.map((r: { id: string }) => r.id);
      const got: string[] = [];
      let pageId: string | null = null;
      let pages = 0;
      do {
        const res: any = await h.as(F.alice)(GROUP_PAGES[field], {
          r: [{ __typename: 'Group', id: group }],
          pageId,
          ...variables,
        });
        assert.equal(res.errors, undefined, JSON.stringify(res.errors));
        const page = res.data._entities[0][field];
        assert.equal(page.count, want.length);
        got.push(...page.list.map((x: { id: string }) => x.id));
        pageId = page.next;
        if (++pages > 200) break;
      } while (pageId);
      assert.deepEqual(got, want, `${field} of ${group}`);
    }
  }
});

test('without statistics, a group page reads each descendant through its index, no sort of their whole history', async () => {
  // Statements as the loader sends them, explained: PostgreSQL has no statistics of these tables
  // (autovacuum off, never analysed), the planner goes by the statement's shape alone.
  const plans: string[] = [];
  const knex = h.knex;
  const explaining = new Proxy(knex, {
    get(target, prop, receiver) {
      if (prop !== 'raw') return Reflect.get(target, prop, receiver);
      return (sql: string, bindings: unknown[]) => {
        const explained = target.raw(`explain ${sql}`, bindings as never);
        return explained.then((r: any) => {
          plans.push(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
          return { rows: [] };
        });
      };
    },
  });
  const loader = groupPageLoader(explaining as Knex, new CursorCodec('x'.repeat(32)), {
    name: 'Group.mobilityTransactions',
    child: TRANSACTION_SPEC,
    groupColumn: 'group_id',
    filter: () => {},
  });
  await loader.load({ parentId: F.groups.hq, args: { pageSize: 5 }, fields: ['id', 'transactedAt'] });
  const plan = plans[0]!;
  assert.match(plan, /Index (Only )?Scan using transactions_group_idx/);
  assert.match(plan, /Limit[\s\S]*Limit/, plan);
});

test('statistics read the trips only for a selection showing the distance; the other fields answer the same', async () => {
  const fields =
    'periodStart productCategory quantityUnit currency transactionCount quantity grossTotal anomaliesCount';
  const ask = (selection: string) =>
    h.as(F.alice)(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Group { mobilityTransactionStatistics(from: "2026-01-01T00:00:00Z", to: "2026-05-31T12:00:00Z") { ${selection} } } ... on Device { mobilityTransactionStatistics(from: "2026-01-01T00:00:00Z", to: "2026-05-31T12:00:00Z") { ${selection} } } } }`,
      {
        r: [
          { __typename: 'Group', id: F.groups.hq },
          { __typename: 'Device', id: F.depotDevices[10] },
        ],
      },
    ) as Promise<any>;
  const withDistance = await ask(`${fields} distanceKm`);
  const without = await ask(fields);
  assert.equal(withDistance.errors, undefined, JSON.stringify(withDistance.errors));
  assert.equal(without.errors, undefined, JSON.stringify(without.errors));
  for (const i of [0, 1]) {
    const rows = withDistance.data._entities[i].mobilityTransactionStatistics;
    assert.ok(rows.length > 0 && rows.some((r: any) => r.distanceKm > 0));
    assert.deepEqual(
      without.data._entities[i].mobilityTransactionStatistics,
      rows.map(({ distanceKm: _km, ...rest }: any) => rest),
    );
  }
});
