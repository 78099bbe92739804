/**
 * The gateway answers through the compiled result shaping (result-shaping/): building the app
 * installs it in Apollo's executor, and a query through the gateway is shaped by it (the
 * `__typename` the stub subgraph never sends is filled in, the client's aliases and order kept).
 * compiled-shaping.test.ts proves the port answers like Apollo's own on any data.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { injectGraphQL, metricSample, NO_BUDGETS } from '@fleetgraph/testing';
import { compiledShapingInstalled } from './result-shaping/install';
import { stubbedGateways, type StubbedGateways } from '../stub-subgraph.test-support';

let stubs: StubbedGateways;

before(async () => {
  stubs = await stubbedGateways();
});
after(async () => {
  await stubs.close();
});

test('the gateway shapes subgraph answers with the compiled result shaping', async () => {
  const app = await stubs.gateway({ RATE_LIMIT_PER_MINUTE: '0' });
  assert.ok(compiledShapingInstalled(), 'buildApp installed the compiled shaping');
  const token = await stubs.issuer.token({ uid: 'shaping', email: 'shaping@example.test' });
  const { status, data, errors } = await injectGraphQL(app, '{ account { kind: __typename email } }', {
    token,
  });
  assert.equal(status, 200);
  assert.equal(errors, undefined);
  assert.equal(JSON.stringify(data), '{"account":{"kind":"Account","email":"shaping@example.test"}}');
  assert.equal(stubs.calls(), 1);
});

const passedThrough = async (app: Awaited<ReturnType<StubbedGateways['gateway']>>) =>
  metricSample(
    (await app.inject({ method: 'GET', url: '/metrics' })).body,
    'gateway_subgraph_answers_passed_through_total{subgraph="fleet-core"}',
  ) ?? 0;

test('a single-fetch answer with exactly the fields asked is sent as the subgraph wrote it', async () => {
  // No budgets: their report in extensions.cost would follow the data.
  const app = await stubs.gateway({
    ...NO_BUDGETS,
  });
  const token = await stubs.issuer.token({ uid: 'passing', email: 'passing@example.test' });
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: { query: '{ account { email } }' },
  });
  assert.equal(response.statusCode, 200);
  assert.equal(response.body.trim(), '{"data":{"account":{"email":"passing@example.test"}}}');
  assert.equal(await passedThrough(app), 1);
});

test('an answer with a field the client did not ask for is shaped: the field never reaches the client', async () => {
  const app = await stubs.gateway({ RATE_LIMIT_PER_MINUTE: '0' });
  const token = await stubs.issuer.token({ uid: 'asking', email: 'asking@example.test' });
  // The stub answers { account { email } } whatever it is asked.
  const { status, data, errors } = await injectGraphQL(app, '{ account { id } }', { token });
  assert.equal(status, 200);
  assert.ok(data && typeof data === 'object', 'the query was answered');
  assert.ok(!JSON.stringify({ data, errors }).includes('asking@example.test'), 'the email stays out');
  assert.equal(await passedThrough(app), 0);
});
