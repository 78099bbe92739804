/**
 * The fields mobility contributes to fleet-core's Device, Group and Driver (through `_entities`,
 * as the gateway calls them), their isolation, batching, and statistics against an independent
 * computation.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import manifest from './manifest';
import { loadDataset } from './testing/dataset';

let h: SubgraphHarness;
let F: any;

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_entities' });
  F = h.facts['fleet-core'];
  await loadDataset(h.knex, F);
});
after(() => h.close());

const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) {
  ... on Device { id mobilityTransactions(pageSize: 100) { count list { id quantity } } mobilityTransactionAnomalies { count list { id code } } }
  ... on Group { id mobilityTransactions(pageSize: 100) { count list { id } } mobilityTransactionAnomalies(active: true) { count list { id } } }
  ... on Driver { id mobilityTransactions(pageSize: 100) { count list { id } } mobilityTransactionAnomalies { count list { id } } }
} }`;

const sqlIds = async (sql: string, b: unknown[]) =>
  ((await h.knex.raw(sql, b as any[])).rows as Array<{ id: string }>).map((r) => r.id).sort();

describe('fields on Device, Group and Driver', () => {
  test('Device, Group (with descendants) and Driver lists match SQL', async () => {
    const res = await h.as(F.alice)(ENTITIES, {
      r: [
        { __typename: 'Device', id: F.depotDevices[0] },
        { __typename: 'Group', id: F.groups.hq },
        { __typename: 'Driver', id: F.drivers.anna },
      ],
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const [device, group, driver] = res.data._entities;
    const ids = (page: any) => page.list.map((x: any) => x.id).sort();
    assert.deepEqual(
      ids(device.mobilityTransactions),
      await sqlIds('select id from mobility.transactions where device_id = ?', [F.depotDevices[0]]),
    );
    assert.equal(device.mobilityTransactions.count, device.mobilityTransactions.list.length);
    assert.deepEqual(
      ids(device.mobilityTransactionAnomalies),
      await sqlIds('select id from mobility.anomalies where device_id = ?', [F.depotDevices[0]]),
    );
    assert.deepEqual(
      ids(group.mobilityTransactions),
      await sqlIds('select id from mobility.transactions where organization_id = ?', [F.orgA]),
    );
    assert.deepEqual(
      ids(group.mobilityTransactionAnomalies),
      await sqlIds('select id from mobility.anomalies where organization_id = ? and active', [F.orgA]),
    );
    assert.deepEqual(
      ids(driver.mobilityTransactions),
      await sqlIds('select id from mobility.transactions where driver_id = ?', [F.drivers.anna]),
    );
    assert.ok(driver.mobilityTransactionAnomalies.count > 0);
  });

  test('entities another account cannot see resolve to null (_entities included)', async () => {
    const res = await h.as(F.carol)(ENTITIES, {
      r: [
        { __typename: 'Device', id: F.depotDevices[0] },
        { __typename: 'Group', id: F.groups.hq },
        { __typename: 'Driver', id: F.drivers.anna },
        { __typename: 'Device', id: F.globexDevices[0] },
      ],
    });
    assert.equal(res.errors, undefined);
    assert.deepEqual(res.data._entities.slice(0, 3), [null, null, null]);
    assert.ok(res.data._entities[3].mobilityTransactions.count > 0, 'carol sees her own device');
    const bob = await h.as(F.bob)(ENTITIES, {
      r: [
        { __typename: 'Group', id: F.groups.south },
        { __typename: 'Group', id: F.groups.north },
      ],
    });
    assert.equal(bob.data._entities[0], null);
    assert.ok(bob.data._entities[1].mobilityTransactions.count > 0);
    const tx = await h.knex('mobility.transactions').where({ organization_id: F.orgA }).first('id');
    const txRef = await h.as(F.carol)(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on MobilityTransaction { id quantity } } }`,
      {
        r: [{ __typename: 'MobilityTransaction', id: tx.id }],
      },
    );
    assert.deepEqual(txRef.data._entities, [null]);
  });

  test('nested pages are batched: statements do not grow with the number of devices', async () => {
    const run = async (n: number) => {
      h.statements.reset();
      const res = await h.as(F.alice)(ENTITIES, {
        r: F.depotDevices.slice(0, n).map((id: string) => ({ __typename: 'Device', id })),
      });
      assert.equal(res.errors, undefined);
      return h.statements.count;
    };
    const small = await run(2);
    const large = await run(40);
    assert.equal(large, small);
  });
});

describe('statistics', () => {
  const STATS = `query($r: [_Any!]!, $from: DateTime, $to: DateTime, $period: MobilityStatisticsPeriod, $groupBy: MobilityTransactionStatisticsGrouping) {
    _entities(representations: $r) {
      ... on Device { mobilityTransactionStatistics(from: $from, to: $to, period: $period, groupBy: $groupBy) { periodStart periodEnd productCategory energyType quantityUnit currency transactionCount quantity netTotal grossTotal averageGrossUnitPrice distanceKm consumptionPer100Km anomaliesCount }
        mobilityTransactionAnomalyStatistics(from: $from, to: $to, period: $period) { periodStart code severity count activeCount clearedCount transactionCount } }
      ... on Group { mobilityTransactionStatistics(from: $from, to: $to, period: $period, groupBy: $groupBy) { periodStart productCategory energyType quantityUnit transactionCount quantity grossTotal distanceKm }
        mobilityTransactionAnomalyStatistics(from: $from, to: $to, period: $period) { code severity count } }
    } }`;
  const from = '2026-03-01T00:00:00.000Z';
  const to = '2026-04-01T00:00:00.000Z';

  test('device statistics by week equal an independent computation from the rows and the trips', async () => {
    const res = await h.as(F.alice)(STATS, {
      r: [{ __typename: 'Device', id: F.depotDevices[0] }],
      from,
      to,
      period: 'WEEK',
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const rows = res.data._entities[0].mobilityTransactionStatistics;
    // Independent: JS over the raw rows.
    const txs = await h
      .knex('mobility.transactions')
      .where('device_id', F.depotDevices[0])
      .where('transacted_at', '>=', from)
      .where('transacted_at', '<', to);
    const trips = await h
      .knex('fleet_contract.trips_v1')
      .where('device_id', F.depotDevices[0])
      .where('started_at', '>=', from)
      .where('started_at', '<', to);
    const monday = (d: Date) => {
      const x = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      return new Date(x.getTime() - ((x.getUTCDay() + 6) % 7) * 86_400_000).toISOString();
    };
    const want = new Map<string, { n: number; q: number; gross: number }>();
    for (const t of txs) {
      const k = `${monday(t.transacted_at)}|${t.product_category}|${t.quantity_unit}`;
      const e = want.get(k) ?? { n: 0, q: 0, gross: 0 };
      e.n++;
      e.q += t.quantity;
      e.gross += t.gross_total ?? 0;
      want.set(k, e);
    }
    const km = new Map<string, number>();
    for (const t of trips)
      km.set(monday(t.started_at), (km.get(monday(t.started_at)) ?? 0) + t.distance_m / 1000);
    assert.equal(rows.length, want.size);
    for (const r of rows) {
      const e = want.get(`${r.periodStart}|${r.productCategory}|${r.quantityUnit}`)!;
      assert.ok(e, `row ${r.periodStart} ${r.productCategory}`);
      assert.equal(r.transactionCount, e.n);
      assert.ok(Math.abs(r.quantity - e.q) < 1e-6);
      assert.ok(Math.abs(r.grossTotal - e.gross) < 1e-6);
      assert.ok(Math.abs(r.distanceKm - (km.get(r.periodStart) ?? 0)) < 1e-6);
      if (r.distanceKm > 0) assert.ok(Math.abs(r.consumptionPer100Km - (e.q / r.distanceKm) * 100) < 1e-6);
      assert.equal(Date.parse(r.periodEnd) - Date.parse(r.periodStart), 7 * 86_400_000);
    }
    const anomalies = res.data._entities[0].mobilityTransactionAnomalyStatistics;
    const { rows: sql } = await h.knex.raw(
      `select code, severity, count(*)::int as n from mobility.anomalies where device_id = ? and transacted_at >= ? and transacted_at < ? group by 1, 2`,
      [F.depotDevices[0], from, to],
    );
    const total = (list: any[], f: string) => list.reduce((s, x) => s + x[f], 0);
    assert.equal(total(anomalies, 'count'), total(sql, 'n'));
    assert.ok(sql.length > 0);
  });

  test('group statistics (TOTAL, by energy) include descendants and the distance of their vehicles', async () => {
    const res = await h.as(F.alice)(STATS, {
      r: [{ __typename: 'Group', id: F.groups.north }],
      from,
      to,
      period: 'TOTAL',
      groupBy: 'ENERGY_TYPE',
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const rows = res.data._entities[0].mobilityTransactionStatistics;
    const { rows: sql } = await h.knex.raw(
      `select energy_type, quantity_unit, count(*)::int as n, sum(quantity)::float8 as q from mobility.transactions
        where group_id = ? and transacted_at >= ? and transacted_at < ? group by 1, 2 order by 1, 2`,
      [F.groups.depot, from, to],
    );
    assert.deepEqual(
      rows.map((r: any) => [r.energyType, r.quantityUnit, r.transactionCount, r.quantity]),
      sql.map((r: any) => [r.energy_type, r.quantity_unit, r.n, r.q]),
    );
    const { rows: km } = await h.knex.raw(
      `select coalesce(sum(distance_m), 0)::float8 / 1000 as km from fleet_contract.trips_v1 where vehicle_id = any(?::uuid[]) and started_at >= ? and started_at < ?`,
      [F.vehicles.depot, from, to],
    );
    for (const r of rows) {
      assert.equal(r.distanceKm, km[0].km);
      assert.equal(r.productCategory, null);
    }
    assert.ok(res.data._entities[0].mobilityTransactionAnomalyStatistics.length > 0);
  });

  test('bad statistics ranges are BAD_USER_INPUT', async () => {
    const res = await h.as(F.alice)(STATS, {
      r: [{ __typename: 'Device', id: F.depotDevices[0] }],
      from: to,
      to: from,
    });
    assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const long = await h.as(F.alice)(STATS, {
      r: [{ __typename: 'Device', id: F.depotDevices[0] }],
      from: '2020-01-01T00:00:00Z',
      to,
      period: 'DAY',
    });
    assert.equal(long.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });
});
