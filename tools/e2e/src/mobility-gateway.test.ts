/**
 * mobility through the real path (SSO token, gateway, query planning across fleet-core and
 * mobility) on the seeded demo: anomalies with their fleet entities, the fields mobility adds to
 * Group and Device, planted frauds found (recall and precision printed), and isolation for an
 * account of another organization (gateway and direct `_entities`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

let stack: Stack;
const tokens = { demo: '', other: '' };

before(async () => {
  stack = await startStack('mobility_gateway');
  tokens.demo = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  tokens.other = await stack.login('ops@globex.example', DEMO_PASSWORD);
});
after(() => stack?.close());

const gql = (query: string, token: string, variables: Record<string, unknown> = {}) =>
  postGraphQL(stack.platform.urls.graphql, query, { token, variables });

test('demo anomalies through the gateway, with vehicle, device and group from fleet-core', async () => {
  const res = await gql(
    `{ mobilityTransactionAnomalies(pageSize: 20, sort: [SEVERITY_DESC, DETECTED_AT_DESC], active: [true]) {
        count next list { id code severity status description expectedValue observedValue unit
          transaction { id quantity quantityUnit productCategory stationCity vehicle { id plate } device { id serialNumber } group { id label } } } } }`,
    tokens.demo,
  );
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  const page = res.data.mobilityTransactionAnomalies;
  assert.ok(page.count > 0 && page.list.length > 0, 'the demo has anomalies');
  assert.ok(
    page.list.some((a: any) => a.transaction.vehicle?.plate),
    'vehicle facts come from fleet-core',
  );
  assert.ok(
    page.list.some((a: any) => a.transaction.group?.label),
    'group label from fleet-core',
  );
  if (!page.next) return;
  const next = await gql(
    `query($p: ID) { mobilityTransactionAnomalies(pageId: $p, sort: [SEVERITY_DESC, DETECTED_AT_DESC], active: [true]) { list { id } } }`,
    tokens.demo,
    { p: page.next },
  );
  assert.equal(next.errors, undefined);
  const firstIds = new Set(page.list.map((a: any) => a.id));
  assert.ok(next.data.mobilityTransactionAnomalies.list.every((a: any) => !firstIds.has(a.id)));
});

test('groups and devices carry transactions, anomalies and statistics', async () => {
  const res = await gql(
    `{ groups(pageSize: 5) { list { id label
        mobilityTransactions(pageSize: 3) { count list { id transactedAt quantity } }
        mobilityTransactionAnomalies(pageSize: 3) { count }
        mobilityTransactionStatistics(period: TOTAL) { productCategory quantityUnit transactionCount quantity grossTotal distanceKm consumptionPer100Km }
        mobilityTransactionAnomalyStatistics(period: TOTAL) { code severity count }
        devices(pageSize: 3) { list { id mobilityTransactions(pageSize: 2) { count } mobilityTransactionStatistics(period: MONTH) { transactionCount } } } } } }`,
    tokens.demo,
  );
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  const groups = res.data.groups.list;
  assert.ok(groups.some((g: any) => g.mobilityTransactions.count > 0));
  assert.ok(groups.some((g: any) => g.mobilityTransactionStatistics.length > 0));
});

test('planted frauds of the demo: every one found, few honest transactions flagged', async () => {
  const { rows } = await stack.knex.raw(`
    select t.planted_fraud, exists (select 1 from mobility.anomalies a where a.transaction_id = t.id and a.code = t.planted_fraud) as found,
           exists (select 1 from mobility.anomalies a where a.transaction_id = t.id) as flagged
      from mobility.transactions t`);
  const planted = rows.filter((r: any) => r.planted_fraud);
  const honest = rows.filter((r: any) => !r.planted_fraud);
  const recall = planted.filter((r: any) => r.found).length / planted.length;
  const fp = honest.filter((r: any) => r.flagged).length;
  const tp = planted.filter((r: any) => r.flagged).length;
  console.log(
    `mobility demo (gateway stack): ${rows.length} transactions, ${planted.length} planted; recall ${(recall * 100).toFixed(1)} %, precision ${((tp / (tp + fp)) * 100).toFixed(1)} %, honest flagged ${fp}/${honest.length}`,
  );
  assert.ok(planted.length > 0);
  assert.equal(recall, 1);
  assert.ok(fp / honest.length < 0.02);
});

test('another organization sees none of the demo: lookups null, lists empty, _entities null', async () => {
  const mine = await gql(
    `{ mobilityTransactionAnomalies(pageSize: 5) { list { id transaction { id device { id } group { id } } } } }`,
    tokens.demo,
  );
  const anomaly = mine.data.mobilityTransactionAnomalies.list[0];
  assert.ok(anomaly, 'the demo account sees anomalies');
  const q = `query($t: ID!, $ids: [ID!]) { mobilityTransaction(id: $t) { id }
    mobilityTransactionAnomalies(mobilityTransactionId: $ids) { count list { id } } }`;
  const theirs = await gql(q, tokens.other, { t: anomaly.transaction.id, ids: [anomaly.transaction.id] });
  assert.equal(theirs.errors, undefined, JSON.stringify(theirs.errors));
  assert.equal(theirs.data.mobilityTransaction, null);
  assert.deepEqual(theirs.data.mobilityTransactionAnomalies, { count: 0, list: [] });
  const direct = await postGraphQL(
    stack.platform.urls.subgraphs.mobility!,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Group { mobilityTransactions { count } } ... on MobilityTransaction { id } ... on MobilityTransactionAnomaly { id } } }`,
    {
      token: tokens.other,
      headers: stack.platform.subgraphHeaders,
      variables: {
        r: [
          { __typename: 'Group', id: anomaly.transaction.group.id },
          { __typename: 'MobilityTransaction', id: anomaly.transaction.id },
          { __typename: 'MobilityTransactionAnomaly', id: anomaly.id },
        ],
      },
    },
  );
  assert.equal(direct.errors, undefined, JSON.stringify(direct.errors));
  assert.deepEqual(direct.data._entities, [null, null, null]);
});
