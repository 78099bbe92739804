/**
 * OpenTelemetry tracing through the real gateway and real subgraphs, all in this process with one
 * tracer provider exporting to memory: the gateway's request span continues the client's W3C
 * traceparent, planning, execution and each subgraph fetch have spans, and each subgraph's request
 * span is a child of the gateway's fetch span (traceparent propagated).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { initTracing } from '@fleetgraph/service-kit';
import { createTestIssuer, injectGraphQL } from '@fleetgraph/testing';
import {
  composeSupergraph,
  FEDERATION,
  logCollector,
  startTestGateway,
  startTestSubgraph,
} from './testing/subgraphs';

const exporter = new InMemorySpanExporter();
const closers: Array<() => Promise<void>> = [];

before(() => {
  assert.equal(initTracing({ serviceName: 'tracing-test', exporter }), true);
});

after(async () => {
  for (const close of closers.reverse()) await close();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

test('one trace from the client through the gateway to every subgraph it calls', async () => {
  const issuer = await createTestIssuer();
  const token = await issuer.token({ uid: 'u-1', email: 'ops@example.test' });
  const ALPHA = `${FEDERATION}
    type Query { things: [Thing!]! }
    type Thing @key(fields: "id") { id: ID! label: String! }`;
  const BETA = `${FEDERATION}
    type Thing @key(fields: "id") { id: ID! score: Int }`;
  const alpha = await startTestSubgraph(
    'alpha',
    ALPHA,
    { Query: { things: () => [{ id: '1', label: 'one' }] } },
    { issuer },
  );
  const beta = await startTestSubgraph(
    'beta',
    BETA,
    { Thing: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, score: 7 }) } },
    { issuer },
  );
  closers.push(alpha.close, beta.close);
  const logs = logCollector();
  const gateway = await startTestGateway(
    composeSupergraph([
      { name: 'alpha', url: alpha.url, typeDefs: ALPHA },
      { name: 'beta', url: beta.url, typeDefs: BETA },
    ]),
    issuer,
    { LOG_LEVEL: 'debug' },
    { logStream: logs.stream },
  );
  closers.push(gateway.close);
  await injectGraphQL(gateway.app, '{ things { id } }', { token }); // warm-up
  exporter.reset();
  logs.lines.length = 0;

  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const clientSpanId = '00f067aa0ba902b7';
  const response = await injectGraphQL(gateway.app, 'query Things { things { id label score } }', {
    token,
    headers: { traceparent: `00-${traceId}-${clientSpanId}-01` },
  });
  assert.deepEqual(response.data, { things: [{ id: '1', label: 'one', score: 7 }] });

  const spans = exporter.getFinishedSpans();
  for (const span of spans) assert.equal(span.spanContext().traceId, traceId, span.name);
  const servers = spans.filter((s) => s.name === 'POST /graphql');
  const gatewayServer = servers.find((s) => s.attributes['fleetgraph.service'] === 'gateway');
  assert.ok(gatewayServer, 'the gateway request span');
  assert.equal(parentOf(gatewayServer), clientSpanId);
  assert.equal(gatewayServer.attributes['http.response.status_code'], 200);

  const byName = (name: string) => spans.filter((s) => s.name === name);
  const [request] = byName('gateway.request');
  assert.ok(request);
  assert.equal(parentOf(request), idOf(gatewayServer));
  const [plan] = byName('gateway.plan');
  const [execute] = byName('gateway.execute');
  assert.ok(plan && execute, spans.map((s) => s.name).join(', '));
  assert.equal(parentOf(plan), idOf(request));
  assert.equal(parentOf(execute), idOf(request));

  const fetches = byName('gateway.fetch');
  assert.deepEqual(fetches.map((s) => s.attributes.service).sort(), ['alpha', 'beta']);
  for (const fetch of fetches) {
    assert.equal(parentOf(fetch), idOf(execute));
    const subgraphServer = servers.find(
      (s) => s.attributes['fleetgraph.service'] === fetch.attributes.service,
    );
    assert.ok(subgraphServer, `the ${String(fetch.attributes.service)} request span`);
    assert.equal(parentOf(subgraphServer), idOf(fetch), 'continues the gateway fetch span (traceparent)');
  }

  // Log lines written during the request carry its trace id.
  const traced = logs.lines.filter((l) => l.msg === 'request completed');
  assert.ok(traced.length > 0);
  for (const line of traced) assert.equal(line.traceId, traceId);
});
