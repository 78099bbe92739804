/**
 * mobilityTransactionAnomalies: every argument of spec 4.2 alone and combined, against the rows
 * computed independently in SQL; sort and paging; isolation; bad input.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { reviewAnomaly } from './detection/engine';
import manifest from './manifest';
import { loadDataset, NOW } from './testing/dataset';

let h: SubgraphHarness;
let F: any;
const DAY = 86_400_000;

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_anomalies' });
  F = h.facts['fleet-core'];
  await loadDataset(h.knex, F);
  // A user decision of each kind, and a finding reported by a user.
  const byCode = async (code: string) =>
    (await h.knex('mobility.anomalies').where({ code }).orderBy('transacted_at').first('id')).id;
  await reviewAnomaly(h.knex, {
    anomalyId: await byCode('UNIT_PRICE_OUTLIER'),
    accountId: F.alice.uid,
    decision: 'DISMISSED',
    note: 'contract price',
    now: new Date(NOW.getTime() + DAY),
  });
  await reviewAnomaly(h.knex, {
    anomalyId: await byCode('WRONG_ENERGY'),
    accountId: F.alice.uid,
    decision: 'CONFIRMED',
    now: new Date(NOW.getTime() + 2 * DAY),
  });
  const tx = await h.knex('mobility.transactions').where({ external_id: 'T-2' }).first();
  await h.knex('mobility.anomalies').insert({
    transaction_id: tx.id,
    organization_id: tx.organization_id,
    code: 'DRIVER_REPORTED',
    description: 'driver reported a card problem',
    severity: 'LOW',
    severity_rank: 1,
    status: 'DETECTED',
    active: true,
    detected_at: new Date(NOW.getTime() - DAY),
    detected_by: 'USER',
    detected_by_id: F.bob.uid,
    vehicle_id: tx.vehicle_id,
    device_id: tx.device_id,
    driver_id: tx.driver_id,
    group_id: tx.group_id,
    transacted_at: tx.transacted_at,
    product_category: tx.product_category,
    transaction_type: tx.transaction_type,
    external_source: tx.external_source,
    external_id: tx.external_id,
    location_city: tx.station_city,
    location_postal_code: tx.station_postal_code,
    location_latitude: tx.station_latitude,
    location_longitude: tx.station_longitude,
  });
});
after(() => h.close());

const QUERY = `query($pageSize: Int, $pageId: ID, $sort: [MobilityTransactionAnomalySort!], $deviceId: [ID!], $vehicleId: [ID!], $driverId: [ID!], $groupId: [ID!],
  $mobilityTransactionId: [ID!], $detectedById: [ID!], $clearedById: [ID!], $detectedBy: [ID!], $clearedBy: [ID!], $active: [Boolean!],
  $status: [MobilityTransactionAnomalyStatus!], $severity: [MobilityTransactionAnomalySeverity!], $code: [String!], $externalSource: [String!],
  $externalId: [String!], $productCategory: [MobilityTransactionProductCategory!], $transactionType: [MobilityTransactionType!],
  $locationCity: [String!], $locationPostalCode: [String!], $locationLatitude: [Float!], $locationLongitude: [Float!],
  $locationLatitudeGte: Float, $locationLatitudeLte: Float, $locationLongitudeGte: Float, $locationLongitudeLte: Float,
  $detectedAtAfter: DateTime, $detectedAtBefore: DateTime, $clearedAtAfter: DateTime, $clearedAtBefore: DateTime,
  $transactedAtAfter: DateTime, $transactedAtBefore: DateTime) {
  mobilityTransactionAnomalies(pageSize: $pageSize, pageId: $pageId, sort: $sort, deviceId: $deviceId, vehicleId: $vehicleId, driverId: $driverId,
    groupId: $groupId, mobilityTransactionId: $mobilityTransactionId, detectedById: $detectedById, clearedById: $clearedById,
    detectedBy: $detectedBy, clearedBy: $clearedBy, active: $active, status: $status, severity: $severity, code: $code,
    externalSource: $externalSource, externalId: $externalId, productCategory: $productCategory, transactionType: $transactionType,
    locationCity: $locationCity, locationPostalCode: $locationPostalCode, locationLatitude: $locationLatitude,
    locationLongitude: $locationLongitude, locationLatitudeGte: $locationLatitudeGte, locationLatitudeLte: $locationLatitudeLte,
    locationLongitudeGte: $locationLongitudeGte, locationLongitudeLte: $locationLongitudeLte, detectedAtAfter: $detectedAtAfter,
    detectedAtBefore: $detectedAtBefore, clearedAtAfter: $clearedAtAfter, clearedAtBefore: $clearedAtBefore,
    transactedAtAfter: $transactedAtAfter, transactedAtBefore: $transactedAtBefore) {
    count next list { id code severity status active detectedAt transactedAt }
  }
}`;

async function ids(user: any, variables: Record<string, unknown>): Promise<string[]> {
  const res = await h.as(user)(QUERY, { pageSize: 500, ...variables });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  const page = res.data.mobilityTransactionAnomalies;
  assert.equal(page.count, page.list.length);
  return page.list.map((a: { id: string }) => a.id).sort();
}

/** Acme's anomalies matching a SQL condition (alice sees all of Acme). */
async function expected(where: string, bindings: unknown[] = []): Promise<string[]> {
  const { rows } = await h.knex.raw(
    `select a.id from mobility.anomalies a join mobility.transactions t on t.id = a.transaction_id
      where t.organization_id = ? and (${where}) order by a.id`,
    [F.orgA, ...bindings] as any[],
  );
  return rows.map((r: { id: string }) => r.id).sort();
}

describe('every filter of 4.2 alone', () => {
  const cases: Array<[string, () => Record<string, unknown>, string, () => unknown[]]> = [
    ['deviceId', () => ({ deviceId: [F.depotDevices[0]] }), 't.device_id = ?', () => [F.depotDevices[0]]],
    [
      'vehicleId',
      () => ({ vehicleId: [F.vehicles.depot[1], F.vehicles.south[1]] }),
      't.vehicle_id in (?, ?)',
      () => [F.vehicles.depot[1], F.vehicles.south[1]],
    ],
    ['driverId', () => ({ driverId: [F.drivers.anna] }), 't.driver_id = ?', () => [F.drivers.anna]],
    ['groupId', () => ({ groupId: [F.groups.south] }), 't.group_id = ?', () => [F.groups.south]],
    ['mobilityTransactionId', () => ({}), 'true', () => []],
    ['detectedById', () => ({ detectedById: [F.bob.uid] }), 'a.detected_by_id = ?', () => [F.bob.uid]],
    ['clearedById', () => ({ clearedById: [F.alice.uid] }), 'a.cleared_by_id = ?', () => [F.alice.uid]],
    ['detectedBy', () => ({ detectedBy: ['USER'] }), "a.detected_by = 'USER'", () => []],
    ['clearedBy', () => ({ clearedBy: ['USER'] }), "a.cleared_by = 'USER'", () => []],
    ['active false', () => ({ active: [false] }), 'a.cleared_at is not null', () => []],
    ['active both', () => ({ active: [true, false] }), 'true', () => []],
    [
      'status',
      () => ({ status: ['CONFIRMED', 'DISMISSED'] }),
      "a.status in ('CONFIRMED', 'DISMISSED')",
      () => [],
    ],
    ['severity', () => ({ severity: ['MEDIUM'] }), "a.severity = 'MEDIUM'", () => []],
    [
      'code',
      () => ({ code: ['REFILL_TOO_SOON', 'WRONG_ENERGY'] }),
      "a.code in ('REFILL_TOO_SOON', 'WRONG_ENERGY')",
      () => [],
    ],
    [
      'externalSource',
      () => ({ externalSource: ['SOUTHCARD', 'OTHERCARD'] }),
      "t.external_source in ('SOUTHCARD', 'OTHERCARD')",
      () => [],
    ],
    ['externalId', () => ({ externalId: ['T-3', 'T-8'] }), "t.external_id in ('T-3', 'T-8')", () => []],
    [
      'productCategory',
      () => ({ productCategory: ['GASOLINE'] }),
      "t.product_category = 'GASOLINE'",
      () => [],
    ],
    [
      'transactionType',
      () => ({ transactionType: ['CHARGE', 'PURCHASE'] }),
      "t.transaction_type in ('CHARGE', 'PURCHASE')",
      () => [],
    ],
    [
      'locationCity',
      () => ({ locationCity: ['münchen', 'Bremen'] }),
      "t.station_city in ('München', 'Bremen')",
      () => [],
    ],
    [
      'locationPostalCode',
      () => ({ locationPostalCode: ['23552'] }),
      "t.station_postal_code = '23552'",
      () => [],
    ],
    ['locationLatitude', () => ({ locationLatitude: [48.137] }), 't.station_latitude = 48.137', () => []],
    ['locationLongitude', () => ({ locationLongitude: [11.575] }), 't.station_longitude = 11.575', () => []],
    ['locationLatitudeGte', () => ({ locationLatitudeGte: 53.6 }), 't.station_latitude >= 53.6', () => []],
    ['locationLatitudeLte', () => ({ locationLatitudeLte: 50 }), 't.station_latitude <= 50', () => []],
    [
      'locationLongitudeGte',
      () => ({ locationLongitudeGte: 10.06 }),
      't.station_longitude >= 10.06',
      () => [],
    ],
    [
      'locationLongitudeLte',
      () => ({ locationLongitudeLte: 10.06 }),
      't.station_longitude <= 10.06',
      () => [],
    ],
    ['detectedAtAfter', () => ({ detectedAtAfter: NOW.toISOString() }), 'a.detected_at >= ?', () => [NOW]],
    ['detectedAtBefore', () => ({ detectedAtBefore: NOW.toISOString() }), 'a.detected_at < ?', () => [NOW]],
    ['clearedAtAfter', () => ({ clearedAtAfter: NOW.toISOString() }), 'a.cleared_at >= ?', () => [NOW]],
    [
      'clearedAtBefore',
      () => ({ clearedAtBefore: '2030-01-01T00:00:00Z' }),
      "a.cleared_at < '2030-01-01'",
      () => [],
    ],
    [
      'transactedAtAfter',
      () => ({ transactedAtAfter: '2026-03-15T00:00:00Z' }),
      "t.transacted_at >= '2026-03-15T00:00:00Z'",
      () => [],
    ],
    [
      'transactedAtBefore',
      () => ({ transactedAtBefore: '2026-03-15T00:00:00Z' }),
      "t.transacted_at < '2026-03-15T00:00:00Z'",
      () => [],
    ],
  ];
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
    const want = await expected(
      "t.vehicle_id = ? and a.code in ('REFILL_TOO_SOON', 'QUANTITY_ABOVE_CAPACITY') and a.severity in ('MEDIUM') and a.active and t.transacted_at >= '2026-03-05'",
      [F.vehicles.depot[0]],
    );
    assert.ok(want.length >= 2);
    assert.deepEqual(
      await ids(F.alice, {
        vehicleId: [F.vehicles.depot[0]],
        code: ['REFILL_TOO_SOON', 'QUANTITY_ABOVE_CAPACITY'],
        severity: ['MEDIUM'],
        active: [true],
        transactedAtAfter: '2026-03-05T00:00:00Z',
      }),
      want,
    );
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
        const res: any = await h.as(F.alice)(QUERY, { pageSize: 3, sort, ...(pageId ? { pageId } : {}) });
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
    const big = await q(QUERY, { pageSize: 501 });
    assert.equal(big.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const mixed = await q(QUERY, { sort: ['DETECTED_AT_DESC', 'CODE_ASC'] });
    assert.equal(mixed.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const first = await q(QUERY, { pageSize: 2 });
    const other = await q(QUERY, {
      pageId: first.data.mobilityTransactionAnomalies.next,
      code: ['WRONG_ENERGY'],
    });
    assert.equal(other.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const tampered = await q(QUERY, { pageId: 'garbage' });
    assert.equal(tampered.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const badDate = await q(QUERY, { detectedAtAfter: 'yesterday' });
    assert.ok(badDate.errors?.length);
    const badEnum = await q(QUERY, { severity: ['SEVERE'] });
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
