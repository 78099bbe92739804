/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, the gateway exports its spans over OTLP/HTTP to
 * <endpoint>/v1/traces (OTLP JSON; checked with a collector stub receiving the real exporter's requests).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '@fleetgraph/service-kit';

test('spans reach the OTLP/HTTP endpoint named by OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
  const received: Array<{ url: string; type: string; body: Buffer }> = [];
  const collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        type: String(request.headers['content-type']),
        body: Buffer.concat(chunks),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'apps/gateway/src/testing/otlp-child.ts')],
      {
        cwd: repoRoot,
        env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'gw-under-test' },
      },
    );
    assert.deepEqual(JSON.parse(stdout), ['SUBGRAPH_UNAVAILABLE']);
    assert.ok(received.length >= 1, 'the collector received spans');
    const names = new Set<string>();
    const services = new Set<string>();
    const traceIds = new Set<string>();
    for (const r of received) {
      assert.equal(r.url, '/v1/traces');
      assert.match(r.type, /^application\/json/);
      const payload = JSON.parse(r.body.toString('utf8')) as OtlpTraces;
      for (const resourceSpans of payload.resourceSpans) {
        for (const attribute of resourceSpans.resource.attributes)
          if (attribute.key === 'service.name') services.add(String(attribute.value.stringValue));
        for (const scope of resourceSpans.scopeSpans)
          for (const span of scope.spans) {
            names.add(span.name);
            traceIds.add(span.traceId);
          }
      }
    }
    assert.deepEqual([...services], ['gw-under-test']);
    for (const name of [
      'POST /graphql',
      'gateway.request',
      'gateway.plan',
      'gateway.execute',
      'gateway.fetch',
    ])
      assert.ok(names.has(name), `exported: ${name} (got ${[...names].join(', ')})`);
    assert.equal(traceIds.size, 1, 'one request, one trace');
  } finally {
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  }
});

interface OtlpTraces {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>;
  }>;
}
