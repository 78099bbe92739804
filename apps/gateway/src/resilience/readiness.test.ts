import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { readinessUrl, subgraphReadiness } from './readiness';

let server: Server;
let probes = 0;
let status = 200;
let base: string;

before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/readyz') probes += 1;
    response.writeHead(request.url === '/readyz' ? status : 404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('the readiness address sits next to the GraphQL address', () => {
  assert.equal(readinessUrl('http://geo:4006/graphql'), 'http://geo:4006/readyz');
  assert.equal(readinessUrl('https://x.test/api/graphql'), 'https://x.test/api/readyz');
});

test('answers are reused for cacheMs, and concurrent checks share one probe', async () => {
  probes = 0;
  status = 200;
  let clock = 1_000_000;
  const check = subgraphReadiness({
    subgraphs: () => [{ name: 'a', url: `${base}/graphql` }],
    cacheMs: 300,
    now: () => clock,
  });
  await Promise.all([check(), check(), check()]);
  assert.equal(probes, 1);
  clock += 299;
  await check();
  assert.equal(probes, 1, 'still within cacheMs');
  status = 503;
  clock += 1;
  await assert.rejects(check, /^Error: not ready: a \(HTTP 503\)$/);
  assert.equal(probes, 2);
});
