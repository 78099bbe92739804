/**
 * The gateway answers through the compiled result shaping (result-shaping/): building the app
 * installs it in Apollo's executor, and a query through the gateway is shaped by it (the
 * `__typename` the stub subgraph never sends is filled in, the client's aliases and order kept).
 * compiled-shaping.test.ts proves the port answers like Apollo's own on any data.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { injectGraphQL } from '@fleetgraph/testing';
import { compiledShapingInstalled } from './result-shaping/install';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';

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
