/**
 * Metrics and request ids through the real gateway and real subgraphs (service-kit +
 * subgraph-kit): GET /metrics after some traffic, and the client's request id in every log line
 * of the gateway and of the subgraph.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { readSdl } from '@fleetgraph/subgraph-kit';
import { createTestIssuer, injectGraphQL, metricSample, type TestIssuer } from '@fleetgraph/testing';
import { CACHE_SCHEMA_DIR, CACHE_SUBGRAPH } from './cache/plugin';
import {
  composeSupergraph,
  deadUrl,
  FEDERATION,
  logCollector,
  startTestGateway,
  startTestSubgraph,
  type TestSubgraph,
} from './testing/subgraphs';

const ALPHA = `${FEDERATION}
type Query { alpha: Alpha }
type Alpha { id: ID! name: String! }`;
const BETA = `${FEDERATION}
type Query { beta: String }`;

let issuer: TestIssuer;
let token: string;
let alpha: TestSubgraph;
let supergraph: string;
const alphaLogs = logCollector();
const closers: Array<() => Promise<void>> = [];

before(async () => {
  issuer = await createTestIssuer();
  token = await issuer.token({ uid: 'u-1', email: 'ops@example.test' });
  alpha = await startTestSubgraph(
    'alpha',
    ALPHA,
    {
      Query: {
        alpha: (_parent: unknown, _args: unknown, context: { log: { info(msg: string): void } }) => {
          context.log.info('alpha resolved');
          return { id: 'a1', name: 'Alpha' };
        },
      },
    },
    { issuer, logStream: alphaLogs.stream, logLevel: 'debug' },
  );
  closers.push(alpha.close);
  // beta is never started: every call to it fails.
  supergraph = composeSupergraph([
    { name: 'alpha', url: alpha.url, typeDefs: ALPHA },
    { name: 'beta', url: await deadUrl(), typeDefs: BETA },
  ]);
});

after(async () => {
  for (const close of closers.reverse()) await close();
});

describe('GET /metrics', () => {
  let app: FastifyInstance;
  let text: string;

  before(async () => {
    const gateway = await startTestGateway(supergraph, issuer, { METRICS_MAX_OPERATIONS: '3' });
    closers.push(gateway.close);
    app = gateway.app;
    const run = (query: string, options: { token?: string; operationName?: string } = { token }) =>
      injectGraphQL(app, query, options);
    await run('query Named { alpha { id } }');
    await run('query Named { alpha { name } }');
    await run('{ alpha { id } }');
    await run('query Partial { alpha { id } beta }');
    await run('query Bad { nope }');
    await run('query Late { alpha { id } }'); // a fourth distinct name: over the cap of 3
    await run('query Named { alpha { id } }', {}); // no token
    // Refused callers naming operations: never a label of their choosing.
    for (let i = 0; i < 5; i++) await run(`query Junk${i} { alpha { id } }`, { operationName: `Junk${i}` });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    text = response.body;
  });

  test('requests and latency per operation name; unnamed is "anonymous", names past the cap are "other"', () => {
    assert.equal(metricSample(text, 'gateway_requests_total{operation="Named",status="200"}'), 2);
    // Refused before parsing (no token): one label for all of them, whatever name they sent.
    assert.equal(metricSample(text, 'gateway_requests_total{operation="unauthenticated",status="401"}'), 6);
    assert.doesNotMatch(text, /operation="Junk/);
    assert.equal(metricSample(text, 'gateway_requests_total{operation="anonymous",status="200"}'), 1);
    assert.equal(metricSample(text, 'gateway_requests_total{operation="Partial",status="200"}'), 1);
    assert.equal(metricSample(text, 'gateway_requests_total{operation="Bad",status="400"}'), 1);
    assert.equal(metricSample(text, 'gateway_requests_total{operation="other",status="200"}'), 1);
    assert.doesNotMatch(text, /operation="Late"/);
    assert.equal(metricSample(text, 'gateway_request_duration_seconds_count{operation="Named"}'), 2);
    assert.equal(
      metricSample(text, 'gateway_request_duration_seconds_bucket{le="+Inf",operation="Named"}'),
      2,
    );
    assert.ok((metricSample(text, 'gateway_request_duration_seconds_sum{operation="Named"}') ?? 0) > 0);
  });

  test('subgraph fetch latency per subgraph and errors per subgraph and reason', () => {
    // Named x2, anonymous, Partial, Late: five calls to alpha; one (failed) call to beta.
    assert.equal(metricSample(text, 'gateway_subgraph_fetch_duration_seconds_count{subgraph="alpha"}'), 5);
    assert.equal(metricSample(text, 'gateway_subgraph_fetch_duration_seconds_count{subgraph="beta"}'), 1);
    assert.equal(
      metricSample(text, 'gateway_subgraph_fetch_errors_total{subgraph="beta",reason="unavailable"}'),
      1,
    );
    assert.doesNotMatch(text, /gateway_subgraph_fetch_errors_total\{subgraph="alpha"/);
  });

  test('GraphQL errors by extensions.code', () => {
    assert.equal(metricSample(text, 'gateway_graphql_errors_total{code="SUBGRAPH_UNAVAILABLE"}'), 1);
    assert.equal(metricSample(text, 'gateway_graphql_errors_total{code="GRAPHQL_VALIDATION_FAILED"}'), 1);
    assert.equal(metricSample(text, 'gateway_graphql_errors_total{code="UNAUTHENTICATED"}'), 6);
  });

  test('cache lookups: with caching never turned on for the login, every answered operation bypasses', () => {
    // Named x2, anonymous, Partial, Bad, Late reach the cache plugin; the 401 stops before it.
    assert.equal(metricSample(text, 'gateway_cache_lookups_total{result="bypass"}'), 6);
    assert.equal(metricSample(text, 'gateway_cache_lookups_total{result="hit"}'), 0);
    assert.equal(metricSample(text, 'gateway_cache_lookups_total{result="miss"}'), 0);
  });

  test('process metrics are exported', () => {
    assert.match(text, /^process_cpu_user_seconds_total /m);
    assert.match(text, /^nodejs_eventloop_lag_seconds /m);
  });

  test('cache lookups by result through the response cache: miss, then hit', async () => {
    const withCache = composeSupergraph([
      { name: 'alpha', url: alpha.url, typeDefs: ALPHA },
      { name: CACHE_SUBGRAPH, url: 'http://localhost/local/gateway', typeDefs: readSdl(CACHE_SCHEMA_DIR) },
    ]);
    const gateway = await startTestGateway(withCache, issuer);
    closers.push(gateway.close);
    const login = await issuer.token({ uid: 'u-9', email: 'cache@example.test' });
    const headers: string[] = [];
    for (const query of [
      '{ cache(ttl: 60) { ttl } }',
      'query Named { alpha { id } }',
      'query Named { alpha { id } }',
    ]) {
      const response = await injectGraphQL(gateway.app, query, { token: login });
      assert.equal(response.errors, undefined);
      headers.push(String(response.headers['x-fleetgraph-cache']));
    }
    // The cache command's own response is cached with its settings (a miss) like the next query.
    assert.deepEqual(headers, ['miss', 'miss', 'hit']);
    const metrics = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(metricSample(metrics, 'gateway_cache_lookups_total{result="bypass"}'), 0);
    assert.equal(metricSample(metrics, 'gateway_cache_lookups_total{result="miss"}'), 2);
    assert.equal(metricSample(metrics, 'gateway_cache_lookups_total{result="hit"}'), 1);
    // The hit called no subgraph.
    assert.equal(metricSample(metrics, 'gateway_subgraph_fetch_duration_seconds_count{subgraph="alpha"}'), 1);
  });

  test('with METRICS_TOKEN, /metrics needs the token', async () => {
    const secret = 'metrics-secret-0123456789';
    const gateway = await startTestGateway(supergraph, issuer, { METRICS_TOKEN: secret });
    closers.push(gateway.close);
    const denied = await gateway.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(denied.statusCode, 401);
    const wrong = await gateway.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${secret.replace('0', '1')}` },
    });
    assert.equal(wrong.statusCode, 401);
    const allowed = await gateway.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(allowed.statusCode, 200);
    assert.match(allowed.body, /gateway_requests_total/);
  });

  test('METRICS=false removes the route', async () => {
    const gateway = await startTestGateway(supergraph, issuer, { METRICS: 'false' });
    closers.push(gateway.close);
    assert.equal((await gateway.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
  });
});

describe('request ids in log lines', () => {
  let app: FastifyInstance;
  const gatewayLogs = logCollector();

  before(async () => {
    const gateway = await startTestGateway(
      supergraph,
      issuer,
      { LOG_LEVEL: 'debug' },
      { logStream: gatewayLogs.stream },
    );
    closers.push(gateway.close);
    app = gateway.app;
    await injectGraphQL(app, '{ alpha { id } }', { token }); // warm-up: plans, connections
  });

  test("the client's x-request-id is in every log line of the gateway and of the subgraph", async () => {
    gatewayLogs.lines.length = 0;
    alphaLogs.lines.length = 0;
    const response = await injectGraphQL(app, '{ alpha { id } beta }', {
      token,
      headers: { 'x-request-id': 'client-req-42' },
    });
    assert.equal(response.headers['x-request-id'], 'client-req-42');
    assert.deepEqual(response.data, { alpha: { id: 'a1' }, beta: null });

    // The gateway: its request lines and the failed call to beta (the data source logs it through
    // the request's logger, from the context: no async context carries the id).
    assert.ok(gatewayLogs.lines.some((l) => l.msg === 'subgraph call failed'));
    assert.ok(gatewayLogs.lines.length >= 3, JSON.stringify(gatewayLogs.lines));
    for (const line of gatewayLogs.lines) assert.equal(line.requestId, 'client-req-42', JSON.stringify(line));
    // The subgraph: its request lines and the resolver's own line.
    assert.ok(alphaLogs.lines.some((l) => l.msg === 'alpha resolved'));
    assert.ok(alphaLogs.lines.length >= 3, JSON.stringify(alphaLogs.lines));
    for (const line of alphaLogs.lines) assert.equal(line.requestId, 'client-req-42', JSON.stringify(line));
  });

  test('without x-request-id the gateway generates one and the subgraph logs the same', async () => {
    alphaLogs.lines.length = 0;
    const response = await injectGraphQL(app, '{ alpha { id } }', { token });
    const id = String(response.headers['x-request-id']);
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.ok(alphaLogs.lines.length > 0);
    for (const line of alphaLogs.lines) assert.equal(line.requestId, id);
  });

  test('an unsafe x-request-id is replaced, not forwarded', async () => {
    alphaLogs.lines.length = 0;
    const response = await injectGraphQL(app, '{ alpha { id } }', {
      token,
      headers: { 'x-request-id': 'bad id\twith "quotes"' },
    });
    const id = String(response.headers['x-request-id']);
    assert.notEqual(id, 'bad id\twith "quotes"');
    for (const line of alphaLogs.lines) assert.equal(line.requestId, id);
  });
});
