/**
 * The gateway calls nothing it was not configured to call. Left to its defaults, @apollo/gateway
 * reports usage metrics to Apollo every hour and, to describe the host, asks the cloud metadata
 * services of AWS, GCP, Azure and Alibaba as it starts (APOLLO_TELEMETRY_DISABLED, config.ts).
 * Every outgoing HTTP request of the process is seen through node:http's diagnostics channel.
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createTestIssuer, injectGraphQL, type TestIssuer } from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';
import { routeEverySubgraph } from './testing/subgraphs';

let issuer: TestIssuer;
let stub: Server;

before(async () => {
  issuer = await createTestIssuer();
  stub = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: { account: { fullName: 'Stub Answer' } } })),
    );
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise<void>((resolve) => stub.close(() => resolve())));

test('starting the gateway and answering a query calls only its subgraphs', async () => {
  const hosts: string[] = [];
  const seen = (message: unknown) => hosts.push((message as { request: ClientRequest }).request.host);
  subscribe('http.client.request.start', seen);
  try {
    const app = await buildApp(
      loadGatewayConfig({
        LOG_LEVEL: 'silent',
        SSO_ISSUER: issuer.issuer,
        TOKEN_AUDIENCE: issuer.audience,
        RATE_LIMIT_PER_MINUTE: '0',
        ...routeEverySubgraph(`http://127.0.0.1:${(stub.address() as AddressInfo).port}/graphql`),
      }),
      { jwks: issuer.jwks },
    );
    const token = await issuer.token({
      uid: '00000000-0000-4000-8000-000000000001',
      email: 'a@example.test',
    });
    const answer = await injectGraphQL(app, '{ account { fullName } }', { token });
    await app.close();
    assert.equal(answer.data?.account.fullName, 'Stub Answer', JSON.stringify(answer));
  } finally {
    unsubscribe('http.client.request.start', seen);
  }
  assert.deepEqual(
    hosts.filter((host) => host !== '127.0.0.1'),
    [],
    'no request left for Apollo or a cloud metadata service',
  );
});
