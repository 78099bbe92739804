/**
 * CORS (CORS_ORIGINS) through the real gateway app: a listed origin gets its preflight answered
 * before authentication and its answers readable; any other origin gets no CORS header, so the
 * browser keeps the answer from it; without CORS_ORIGINS nothing is allowed cross-origin.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { repoRoot } from '@fleetgraph/service-kit';
import { createTestIssuer, type TestIssuer } from '@fleetgraph/testing';
import { deadUrl, routeEverySubgraph, startTestGateway } from './testing/subgraphs';

const APP = 'https://app.example.test';
let issuer: TestIssuer;
let token: string;
const closers: Array<() => Promise<void>> = [];

async function gateway(env: Record<string, string>): Promise<FastifyInstance> {
  const supergraph = readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8');
  const started = await startTestGateway(supergraph, issuer, {
    ...routeEverySubgraph(await deadUrl()),
    ...env,
  });
  closers.push(started.close);
  return started.app;
}

before(async () => {
  issuer = await createTestIssuer();
  token = await issuer.token({ uid: 'u-1', email: 'cors@example.test' });
});
after(async () => {
  for (const close of closers.reverse()) await close();
});

const preflight = (app: FastifyInstance, origin: string) =>
  app.inject({
    method: 'OPTIONS',
    url: '/graphql',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

const post = (app: FastifyInstance, origin: string) =>
  app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { origin, 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify({ query: '{ __typename }' }),
  });

describe('CORS_ORIGINS set', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await gateway({ CORS_ORIGINS: `${APP},http://localhost:5173` });
  });

  test('a listed origin: the preflight is 204 with the methods, headers and max-age, no token needed', async () => {
    const answer = await preflight(app, APP);
    assert.equal(answer.statusCode, 204, answer.body);
    assert.equal(answer.headers['access-control-allow-origin'], APP);
    assert.equal(answer.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
    assert.match(String(answer.headers['access-control-allow-headers']), /authorization/);
    assert.match(String(answer.headers['access-control-allow-headers']), /content-type/);
    assert.equal(answer.headers['access-control-max-age'], '600');
  });

  test('a listed origin reads the answer and the request id; Vary names Origin', async () => {
    const answer = await post(app, APP);
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { data: { __typename: 'Query' } });
    assert.equal(answer.headers['access-control-allow-origin'], APP);
    assert.match(String(answer.headers['access-control-expose-headers']), /x-request-id/);
    assert.match(String(answer.headers.vary), /origin/i);
  });

  test('another origin gets no CORS header on the preflight or the answer', async () => {
    const refused = await preflight(app, 'https://evil.example.test');
    assert.ok(refused.statusCode < 500, refused.body);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
    const answer = await post(app, 'https://evil.example.test');
    assert.equal(answer.statusCode, 200, 'the server answers; the browser withholds it');
    assert.equal(answer.headers['access-control-allow-origin'], undefined);
  });
});

test('without CORS_ORIGINS no origin is allowed cross-origin', async () => {
  const app = await gateway({});
  const answer = await preflight(app, APP);
  assert.ok(answer.statusCode < 500, answer.body);
  assert.equal(answer.headers['access-control-allow-origin'], undefined);
  assert.equal((await post(app, APP)).headers['access-control-allow-origin'], undefined);
});
