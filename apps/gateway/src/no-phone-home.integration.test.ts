/**
 * The gateway calls nothing it was not configured to call. Left to its defaults, @apollo/gateway
 * reports usage metrics to Apollo every hour and, to describe the host, asks the cloud metadata
 * services of AWS, GCP, Azure and Alibaba as it starts (APOLLO_TELEMETRY_DISABLED, config.ts).
 * Every outgoing HTTP request of the process is seen through node:http's diagnostics channel.
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { injectGraphQL } from '@fleetgraph/testing';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';

let stubbed: StubbedGateways;
before(async () => {
  stubbed = await stubbedGateways();
});
after(() => stubbed.close());

test('starting the gateway and answering a query calls only its subgraphs', async () => {
  const hosts: string[] = [];
  const seen = (message: unknown) => hosts.push((message as { request: ClientRequest }).request.host);
  subscribe('http.client.request.start', seen);
  try {
    const app = await stubbed.gateway();
    const token = await stubbed.issuer.token({
      uid: '00000000-0000-4000-8000-000000000001',
      email: 'a@example.test',
    });
    const answer = await injectGraphQL(app, '{ account { email } }', { token });
    await app.close();
    assert.equal(answer.data?.account.email, 'a@example.test', JSON.stringify(answer));
  } finally {
    unsubscribe('http.client.request.start', seen);
  }
  assert.equal(stubbed.calls(), 1, 'the query reached the stub subgraph');
  assert.deepEqual(
    hosts.filter((host) => host !== '127.0.0.1'),
    [],
    'no request left for Apollo or a cloud metadata service',
  );
});

test("building a gateway leaves the process's APOLLO_TELEMETRY_DISABLED as it was", async () => {
  const before = process.env.APOLLO_TELEMETRY_DISABLED;
  try {
    delete process.env.APOLLO_TELEMETRY_DISABLED;
    await (await stubbed.gateway()).close();
    assert.equal(process.env.APOLLO_TELEMETRY_DISABLED, undefined);
    process.env.APOLLO_TELEMETRY_DISABLED = 'set-by-the-operator';
    await (await stubbed.gateway()).close();
    assert.equal(process.env.APOLLO_TELEMETRY_DISABLED, 'set-by-the-operator');
  } finally {
    if (before === undefined) delete process.env.APOLLO_TELEMETRY_DISABLED;
    else process.env.APOLLO_TELEMETRY_DISABLED = before;
  }
});
