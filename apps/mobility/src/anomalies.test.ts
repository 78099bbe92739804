/**
 * mobilityTransactionAnomalies: every argument of spec 4.2 alone and combined, against the rows
 * computed independently in SQL; sort and paging; isolation; bad input.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import manifest from './manifest';
import { loadDataset } from './testing/dataset';
import {
  ANOMALIES_QUERY,
  combinedFilterCase,
  expectedIds,
  filterCases,
  prepareAnomalies,
} from './testing/filter-cases';

let h: SubgraphHarness;
let F: any;

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_anomalies' });
  F = h.facts['fleet-core'];
  await loadDataset(h.knex, F);
  await prepareAnomalies(h.knex, F);
});
after(() => h.close());

async function ids(user: any, variables: Record<string, unknown>): Promise<string[]> {
  const res = await h.as(user)(ANOMALIES_QUERY, { pageSize: 500, ...variables });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  const page = res.data.mobilityTransactionAnomalies;
  assert.equal(page.count, page.list.length);
  return page.list.map((a: { id: string }) => a.id).sort();
}

const expected = (where: string, bindings: unknown[] = []) => expectedIds(h.knex, F, where, bindings);

describe('every filter of 4.2 alone', () => {
  const cases = filterCases(() => F);
  for (const [name, variables, where, bindings] of cases) {
    test(name, async () => {
      const want = await expected(where, bindings());
      if (name !== 'active both' && name !== 'mobilityTransactionId') {
        const all = await expected('true');
        assert.ok(
          want.length > 0 && want.length < all.length,
          `${name} selects a proper subset (${want.length})`,
        );
      }
      assert.deepEqual(await ids(F.alice, variables()), want);
    });
  }
  test('mobilityTransactionId', async () => {
    const tx = await h.knex('mobility.transactions').where({ external_id: 'T-3' }).first('id');
    assert.deepEqual(
      await ids(F.alice, { mobilityTransactionId: [tx.id] }),
      await expected('t.id = ?', [tx.id]),
    );
    assert.equal((await expected('t.id = ?', [tx.id])).length, 2);
  });
});

describe('filters combined', () => {
  test('AND across arguments, OR within a list', async () => {
    const [, variables, where, bindings] = combinedFilterCase(() => F);
    const want = await expected(where, bindings());
    assert.ok(want.length >= 2);
    assert.deepEqual(await ids(F.alice, variables()), want);
    const box = await expected(
      't.station_latitude between 53 and 54 and t.station_longitude between 10.0 and 10.1 and t.product_category = ? and a.detected_by = ?',
      ['DIESEL', 'SYSTEM'],
    );
    assert.deepEqual(
      await ids(F.alice, {
        locationLatitudeGte: 53,
        locationLatitudeLte: 54,
        locationLongitudeGte: 10.0,
        locationLongitudeLte: 10.1,
        productCategory: ['DIESEL'],
        detectedBy: ['SYSTEM'],
      }),
      box,
    );
  });
  test('an empty list matches nothing; an id that is not a uuid matches nothing', async () => {
    assert.deepEqual(await ids(F.alice, { code: [] }), []);
    assert.deepEqual(await ids(F.alice, { vehicleId: ['not-a-uuid'] }), []);
  });
});

function lexLe(a: unknown[], b: unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if ((a[i] as any) < (b[i] as any)) return true;
    if ((a[i] as any) > (b[i] as any)) return false;
  }
  return true;
}

describe('sort and paging', () => {
  test('every sort walks every row once in order, through next', async () => {
    const rank: Record<string, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
    const all = await expected('true');
    for (const [sort, key] of [
      [['DETECTED_AT_DESC'], (a: any) => [-Date.parse(a.detectedAt)]],
      [['TRANSACTED_AT_ASC'], (a: any) => [Date.parse(a.transactedAt)]],
      [
        ['SEVERITY_DESC', 'TRANSACTED_AT_DESC'],
        (a: any) => [-rank[a.severity]!, -Date.parse(a.transactedAt)],
      ],
      [['CODE_ASC'], (a: any) => [a.code]],
    ] as const) {
      const seen: any[] = [];
      let pageId: string | null = null;
      do {
        const res: any = await h.as(F.alice)(ANOMALIES_QUERY, {
          pageSize: 3,
          sort,
          ...(pageId ? { pageId } : {}),
        });
        assert.equal(res.errors, undefined, JSON.stringify(res.errors));
        seen.push(...res.data.mobilityTransactionAnomalies.list);
        pageId = res.data.mobilityTransactionAnomalies.next;
      } while (pageId);
      assert.deepEqual(seen.map((a) => a.id).sort(), all, `${sort} visits every row once`);
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [(key as any)(seen[i - 1]), (key as any)(seen[i])];
        assert.ok(lexLe(a, b), `${sort} order at ${i}`);
      }
    }
  });
  test('bad input: page size over the maximum, mixed sort directions, a cursor of other filters', async () => {
    const q = h.as(F.alice);
    const big = await q(ANOMALIES_QUERY, { pageSize: 501 });
    assert.equal(big.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const mixed = await q(ANOMALIES_QUERY, { sort: ['DETECTED_AT_DESC', 'CODE_ASC'] });
    assert.equal(mixed.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const first = await q(ANOMALIES_QUERY, { pageSize: 2 });
    const other = await q(ANOMALIES_QUERY, {
      pageId: first.data.mobilityTransactionAnomalies.next,
      code: ['WRONG_ENERGY'],
    });
    assert.equal(other.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const tampered = await q(ANOMALIES_QUERY, { pageId: 'garbage' });
    assert.equal(tampered.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const badDate = await q(ANOMALIES_QUERY, { detectedAtAfter: 'yesterday' });
    assert.ok(badDate.errors?.length);
    const badEnum = await q(ANOMALIES_QUERY, { severity: ['SEVERE'] });
    assert.ok(badEnum.errors?.length);
  });
});

describe('isolation', () => {
  test('carol sees only Globex, bob only North and its depot, nobody anything of another organization', async () => {
    const carol = await ids(F.carol, {});
    const globex = (await h.knex('mobility.anomalies').where({ organization_id: F.orgB }).select('id'))
      .map((r: { id: string }) => r.id)
      .sort();
    assert.ok(globex.length > 0);
    assert.deepEqual(carol, globex);
    const bob = await ids(F.bob, {});
    assert.deepEqual(bob, await expected('t.group_id = ?', [F.groups.depot]));
    assert.deepEqual(await ids(F.bob, { groupId: [F.groups.south] }), []);
    assert.deepEqual(await ids(F.carol, { vehicleId: [F.vehicles.depot[0]] }), []);
  });
  test('mobilityTransaction of another organization is null like an unknown id; a malformed id is null', async () => {
    const tx = await h.knex('mobility.transactions').where({ external_id: 'T-3' }).first('id');
    const q = `query($id: ID!) { mobilityTransaction(id: $id) { id quantity anomaliesCount activeAnomaliesCount hasActiveAnomalies } }`;
    const mine = await h.as(F.alice)(q, { id: tx.id });
    assert.equal(mine.data.mobilityTransaction.quantity, 200);
    assert.equal(mine.data.mobilityTransaction.anomaliesCount, 2);
    assert.equal((await h.as(F.carol)(q, { id: tx.id })).data.mobilityTransaction, null);
    assert.equal(
      (await h.as(F.carol)(q, { id: '00000000-0000-4000-8000-000000000000' })).data.mobilityTransaction,
      null,
    );
    const malformed = await h.as(F.alice)(q, { id: 'x' });
    assert.equal(malformed.errors, undefined);
    assert.equal(malformed.data.mobilityTransaction, null);
    const south = await h.knex('mobility.transactions').where({ external_source: 'SOUTHCARD' }).first('id');
    assert.equal((await h.as(F.alice)(q, { id: south.id })).data.mobilityTransaction.quantity, 300);
    assert.equal((await h.as(F.bob)(q, { id: south.id })).data.mobilityTransaction, null);
  });
});
