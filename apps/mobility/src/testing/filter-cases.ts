/**
 * Test-only: the filter case table of spec 4.2 for mobilityTransactionAnomalies, shared by the
 * subgraph test and the gateway test, and the SQL that computes each case's rows independently.
 */
import type { Knex } from 'knex';
import { reviewAnomaly } from '../domain/detection/engine';
import { NOW } from './dataset';

const DAY = 86_400_000;

/** [name, GraphQL variables, SQL condition over a (anomalies) and t (transactions), bindings]. */
export type FilterCase = [string, () => Record<string, unknown>, string, () => unknown[]];

/** Every filter of 4.2 alone; `facts` returns fleet-core's fixture facts once loaded. */
export function filterCases(facts: () => any): FilterCase[] {
  return [
    [
      'deviceId',
      () => ({ deviceId: [facts().depotDevices[0]] }),
      't.device_id = ?',
      () => [facts().depotDevices[0]],
    ],
    [
      'vehicleId',
      () => ({ vehicleId: [facts().vehicles.depot[1], facts().vehicles.south[1]] }),
      't.vehicle_id in (?, ?)',
      () => [facts().vehicles.depot[1], facts().vehicles.south[1]],
    ],
    [
      'driverId',
      () => ({ driverId: [facts().drivers.anna] }),
      't.driver_id = ?',
      () => [facts().drivers.anna],
    ],
    ['groupId', () => ({ groupId: [facts().groups.south] }), 't.group_id = ?', () => [facts().groups.south]],
    ['mobilityTransactionId', () => ({}), 'true', () => []],
    [
      'detectedById',
      () => ({ detectedById: [facts().bob.uid] }),
      'a.detected_by_id = ?',
      () => [facts().bob.uid],
    ],
    [
      'clearedById',
      () => ({ clearedById: [facts().alice.uid] }),
      'a.cleared_by_id = ?',
      () => [facts().alice.uid],
    ],
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
}

/** Filters combined: AND across arguments, OR within a list (the SQL matches at least two rows). */
export function combinedFilterCase(facts: () => any): FilterCase {
  return [
    'combined',
    () => ({
      vehicleId: [facts().vehicles.depot[0]],
      code: ['REFILL_TOO_SOON', 'QUANTITY_ABOVE_CAPACITY'],
      severity: ['MEDIUM'],
      active: [true],
      transactedAtAfter: '2026-03-05T00:00:00Z',
    }),
    "t.vehicle_id = ? and a.code in ('REFILL_TOO_SOON', 'QUANTITY_ABOVE_CAPACITY') and a.severity in ('MEDIUM') and a.active and t.transacted_at >= '2026-03-05'",
    () => [facts().vehicles.depot[0]],
  ];
}

/** Acme's anomalies matching a SQL condition (alice sees all of Acme), sorted ids. */
export async function expectedIds(
  knex: Knex,
  F: any,
  where: string,
  bindings: unknown[] = [],
): Promise<string[]> {
  const { rows } = await knex.raw(
    `select a.id from mobility.anomalies a join mobility.transactions t on t.id = a.transaction_id
      where t.organization_id = ? and (${where}) order by a.id`,
    [F.orgA, ...bindings] as any[],
  );
  return rows.map((r: { id: string }) => r.id).sort();
}

/** After loadDataset: a user decision of each kind, and a finding reported by a user. */
export async function prepareAnomalies(knex: Knex, F: any): Promise<void> {
  // A user decision of each kind, and a finding reported by a user.
  const byCode = async (code: string) =>
    (await knex('mobility.anomalies').where({ code }).orderBy('transacted_at').first('id')).id;
  await reviewAnomaly(knex, {
    anomalyId: await byCode('UNIT_PRICE_OUTLIER'),
    accountId: F.alice.uid,
    decision: 'DISMISSED',
    note: 'contract price',
    now: new Date(NOW.getTime() + DAY),
  });
  await reviewAnomaly(knex, {
    anomalyId: await byCode('WRONG_ENERGY'),
    accountId: F.alice.uid,
    decision: 'CONFIRMED',
    now: new Date(NOW.getTime() + 2 * DAY),
  });
  const tx = await knex('mobility.transactions').where({ external_id: 'T-2' }).first();
  await knex('mobility.anomalies').insert({
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
}

/** mobilityTransactionAnomalies with every argument of spec 4.2 as a variable (app and gateway tests). */
export const ANOMALIES_QUERY = `query($pageSize: Int, $pageId: ID, $sort: [MobilityTransactionAnomalySort!], $deviceId: [ID!], $vehicleId: [ID!], $driverId: [ID!], $groupId: [ID!],
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
