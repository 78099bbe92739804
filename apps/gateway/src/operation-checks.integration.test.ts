/**
 * Client mistakes the gateway refuses before planning (operation-checks.ts), through HTTP on the
 * real supergraph: HTTP 400 with a code, never a 500 from the planner. The subgraphs are
 * unreachable on purpose: none of these may get as far as a subgraph call.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot } from '@fleetgraph/service-kit';
import { createTestIssuer } from '@fleetgraph/testing';
import { deadUrl, routeEverySubgraph, startTestGateway } from './testing/subgraphs';

let url: string;
let token: string;
let close: () => Promise<void>;

before(async () => {
  const issuer = await createTestIssuer();
  token = await issuer.token({ uid: 'u-1', email: 'checks@example.test' });
  const gateway = await startTestGateway(
    readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8'),
    issuer,
    routeEverySubgraph(await deadUrl()),
  );
  close = gateway.close;
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}/graphql`;
});
after(() => close());

async function post(body: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
    },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as {
    data?: unknown;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
  return { status: response.status, error: json.errors?.[0], data: json.data };
}

test('several operations and no operationName: 400 OPERATION_RESOLUTION_FAILURE naming them', async () => {
  const answer = await post({ query: 'query A { __typename } query B { __typename }' });
  assert.equal(answer.status, 400);
  assert.equal(answer.error?.extensions?.code, 'OPERATION_RESOLUTION_FAILURE');
  assert.match(answer.error!.message, /A, B/);
});

test('an operationName that names none of them: 400 OPERATION_RESOLUTION_FAILURE', async () => {
  const answer = await post({ query: 'query A { __typename }', operationName: 'Nope' });
  assert.equal(answer.status, 400);
  assert.equal(answer.error?.extensions?.code, 'OPERATION_RESOLUTION_FAILURE');
  assert.match(answer.error!.message, /No operation named "Nope"/);
});

test('a mutation: 400, the graph is read-only', async () => {
  const answer = await post({ query: 'mutation { __typename }' });
  assert.equal(answer.status, 400);
  assert.equal(answer.error?.extensions?.code, 'GRAPHQL_VALIDATION_FAILED');
});

test('a number literal that is not finite: 400 BAD_USER_INPUT, the same answer when the query repeats', async () => {
  const query = '{ geodecode(lat: 1e400, lng: 2) { __typename } }';
  for (let i = 0; i < 2; i++) {
    const answer = await post({ query });
    assert.equal(answer.status, 400, `attempt ${i + 1}`);
    assert.equal(answer.error?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(answer.error!.message, /The number 1e400 is out of range/);
  }
  // A finite literal in the same shape passes the check (and reaches planning: here the
  // unreachable subgraph, so an error, but not this one).
  const finite = await post({ query: '{ geodecode(lat: 48.1, lng: 11.5) { __typename } }' });
  assert.notEqual(finite.error?.extensions?.code, 'BAD_USER_INPUT');
});
