/**
 * Column projection (TableSpec.fieldNeeds) never changes an answer: every field of an anomaly or a
 * transaction, selected alone (so only its columns are read), answers exactly what it answers
 * with every column read, through HTTP on real PostgreSQL: in the root pages (two sorts), the
 * nested pages of Device, Group, Driver and MobilityTransaction, and the transaction lookups.
 * Every field of these types is a column or declared, so the reference answers are read with
 * the tables' projection off (`unprojected`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dataOf } from '@fleetgraph/testing';
import {
  assertProjectionKeepsAnswers,
  startSubgraphHarness,
  type ProjectionCase,
  type SubgraphHarness,
} from '@fleetgraph/subgraph-kit/testing';
import { sortOrder } from './data/anomaly-filters';
import { ANOMALY_SPEC, TRANSACTION_SPEC, anomalySpec } from './data/tables';
import manifest from './manifest';
import { loadDataset } from './testing/dataset';

const REFERENCES = 'device { id } vehicle { id } driver { id } group { id }';
const ANOMALY = `id code description status severity active detectedAt detectedBy detectedById clearedAt
  clearedBy clearedById clearReason transaction { id quantity netTotal } transactedAt locationCity
  locationPostalCode locationLatitude locationLongitude expectedValue observedValue unit evidence ${REFERENCES}`;
const TRANSACTION = `id transactedAt quantity quantityUnit odometerKm hasAnomalies hasActiveAnomalies anomaliesCount
  activeAnomaliesCount energyType productCategory transactionType productLabel vehiclePlate vehicleVin
  deviceImei driverLabel netUnitPrice grossUnitPrice netTotal grossTotal currency stationName stationBrand
  stationCity stationPostalCode stationLatitude stationLongitude source externalSource externalId notes
  createdAt updatedAt ${REFERENCES} mobilityTransactionAnomalies { count list { id code } }`;

let h: SubgraphHarness;
let F: any;
let transactionId: string;

before(async () => {
  // Full selections of nested pages are over the query-cost limit on purpose: they compare
  // answers, they are not what clients may ask.
  h = await startSubgraphHarness(manifest, { label: 'mobility_projection', env: { MAX_COST: '100000000' } });
  F = h.facts['fleet-core'];
  await loadDataset(h.knex, F);
  const [row] = await h
    .knex('mobility.anomalies')
    .select('transaction_id')
    .where('device_id', F.depotDevices[0]);
  transactionId = row.transaction_id;
});
after(() => h?.close());

const both = [ANOMALY_SPEC, TRANSACTION_SPEC];
const entities = (selection: string) => `query($r: [_Any!]!) { _entities(representations: $r) {
  ... on Device { mobilityTransactions(pageSize: 100) { list { ${selection} } } }
  ... on Group { mobilityTransactions(pageSize: 100) { list { ${selection} } } }
  ... on Driver { mobilityTransactions(pageSize: 100) { list { ${selection} } } } } }`;
const anomalyEntities = (selection: string) => `query($r: [_Any!]!) { _entities(representations: $r) {
  ... on Device { mobilityTransactionAnomalies { list { ${selection} } } }
  ... on Group { mobilityTransactionAnomalies { list { ${selection} } } }
  ... on Driver { mobilityTransactionAnomalies { list { ${selection} } } } } }`;
const lists = (field: string) => (d: any) => d._entities.flatMap((e: any) => e[field].list);

const cases: Array<ProjectionCase & { type: string; entities?: boolean }> = [
  {
    type: 'MobilityTransactionAnomaly (root page, default sort)',
    full: ANOMALY,
    wrap: (s) => `{ mobilityTransactionAnomalies(pageSize: 100) { list { ${s} } } }`,
    items: (d) => d.mobilityTransactionAnomalies.list,
    unprojected: both,
  },
  {
    type: 'MobilityTransactionAnomaly (root page, sorted by severity)',
    full: ANOMALY,
    wrap: (s) => `{ mobilityTransactionAnomalies(pageSize: 100, sort: [SEVERITY_DESC]) { list { ${s} } } }`,
    items: (d) => d.mobilityTransactionAnomalies.list,
    unprojected: [anomalySpec(sortOrder(['SEVERITY_DESC'])), TRANSACTION_SPEC],
  },
  {
    type: 'MobilityTransaction (MobilityTransactionAnomaly.transaction lookup)',
    full: TRANSACTION,
    wrap: (s) => `{ mobilityTransactionAnomalies(pageSize: 100) { list { id transaction { ${s} } } } }`,
    items: (d) => d.mobilityTransactionAnomalies.list.map((a: any) => a.transaction).filter(Boolean),
    unprojected: both,
  },
  {
    type: 'MobilityTransaction (Device, Group and Driver pages)',
    full: TRANSACTION,
    wrap: entities,
    items: lists('mobilityTransactions'),
    unprojected: both,
    entities: true,
  },
  {
    type: 'MobilityTransactionAnomaly (Device, Group and Driver pages)',
    full: ANOMALY,
    wrap: anomalyEntities,
    items: lists('mobilityTransactionAnomalies'),
    unprojected: both,
    entities: true,
  },
];

const representations = () => [
  { __typename: 'Device', id: F.depotDevices[0] },
  { __typename: 'Group', id: F.groups.hq },
  { __typename: 'Driver', id: F.drivers.anna },
];

describe('column projection', () => {
  for (const { entities: withEntities, ...projection } of cases)
    test(`${projection.type}: each field alone answers what it answers with every column read`, () =>
      assertProjectionKeepsAnswers(
        (query) => h.as(F.alice)(query, withEntities ? { r: representations() } : undefined),
        projection,
      ));

  test('MobilityTransaction by id and its anomalies: each field alone answers what it answers with every column read', async () => {
    await assertProjectionKeepsAnswers(h.as(F.alice), {
      full: TRANSACTION,
      wrap: (s) => `{ mobilityTransaction(id: "${transactionId}") { ${s} } }`,
      items: (d) => [d.mobilityTransaction],
      unprojected: both,
    });
    await assertProjectionKeepsAnswers(h.as(F.alice), {
      full: ANOMALY,
      wrap: (s) =>
        `{ mobilityTransaction(id: "${transactionId}") { mobilityTransactionAnomalies { list { ${s} } } } }`,
      items: (d) => d.mobilityTransaction.mobilityTransactionAnomalies.list,
      unprojected: both,
    });
  });

  test('a narrow selection reads only its columns (the projection is in force)', async () => {
    h.statements.reset();
    const list = dataOf(
      await h.as(F.alice)(
        `{ mobilityTransactionAnomalies(pageSize: 5) { list { code transaction { netTotal } } } }`,
      ),
    ).mobilityTransactionAnomalies.list;
    assert.ok(
      list.length > 0 && list.some((a: any) => a.transaction),
      'anomalies and their transactions answered',
    );
    const anomalies = h.statements.statements.find((sql) => sql.includes('"mobility"."anomalies"'));
    const transactions = h.statements.statements.find((sql) => sql.includes('"mobility"."transactions"'));
    assert.ok(anomalies && transactions, 'both tables were read');
    assert.match(anomalies, /"a"\."code"/);
    assert.doesNotMatch(anomalies, /evidence|description|location_city/);
    assert.match(transactions, /net_total/);
    assert.doesNotMatch(transactions, /station_name|notes|vehicle_vin/);
  });
});
