/**
 * The gateway over a real subgraph (geodecode on a throwaway PostgreSQL database) while the other
 * subgraphs are down: the real supergraph, real HTTP on real ports. geodecode's fields are served,
 * the down subgraphs' fields get SUBGRAPH_UNAVAILABLE errors, readiness names them, and the
 * client's request id is in the log lines of both the gateway and geodecode.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@fleetgraph/db';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { buildApp as buildGeodecode, loadGeodecodeConfig } from '@fleetgraph/geodecode';
import { createTestIssuer, postGraphQL, type TestIssuer } from '@fleetgraph/testing';

let database: TestDatabase;
let issuer: TestIssuer;
let geodecode: FastifyInstance;
let gateway: FastifyInstance;
let gatewayUrl: string;
const gatewayLines: Array<Record<string, unknown>> = [];
const geodecodeLines: Array<Record<string, unknown>> = [];

const collect = (lines: Array<Record<string, unknown>>) => ({
  write(chunk: string) {
    for (const line of chunk.split('\n'))
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  },
});

async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/graphql`;
}

before(async () => {
  database = await createTestDatabase('e2e_gateway_resilience');
  issuer = await createTestIssuer();
  const geoConfig = loadGeodecodeConfig({
    SSO_ISSUER: issuer.issuer,
    LOG_LEVEL: 'debug',
  });
  geodecode = await buildGeodecode(
    { ...geoConfig, databaseUrl: database.url },
    { jwks: issuer.jwks, logStream: collect(geodecodeLines) },
  );
  await geodecode.listen({ port: 0, host: '127.0.0.1' });
  const dead = await deadUrl();
  const config = loadGatewayConfig({
    LOG_LEVEL: 'debug',
    SSO_ISSUER: issuer.issuer,
    TOKEN_AUDIENCE: issuer.audience,
    SUBGRAPH_GEODECODE_URL: `http://127.0.0.1:${(geodecode.server.address() as AddressInfo).port}/graphql`,
    SUBGRAPH_FLEET_CORE_URL: dead,
    SUBGRAPH_VEHICLE_DATA_URL: dead,
    RATE_LIMIT_PER_MINUTE: '0',
  });
  gateway = await buildGateway(config, { jwks: issuer.jwks, logStream: collect(gatewayLines) });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
});

after(async () => {
  await gateway?.close();
  await geodecode?.close();
  await database?.drop();
});

const QUERY = `query Mixed {
  geodecode(lang: "IC", countryCode: "FR") { elements { kind countryCode country } }
  decodeDtcs(vin: "", codes: ["P0300"], protocol: OBD2, region: EUROPE) { id }
  device(id: "1") { id }
}`;

test('geodecode is served while fleet-core and vehicle-data are down; their fields have SUBGRAPH_UNAVAILABLE errors', async () => {
  const token = await issuer.token({ uid: 'u-1', email: 'ops@example.test' });
  const response = await postGraphQL(`${gatewayUrl}/graphql`, QUERY, { token });
  assert.equal(response.status, 200);
  assert.deepEqual(response.data, {
    geodecode: { elements: [{ kind: 'COUNTRY', countryCode: 'FR', country: 'France' }] },
    decodeDtcs: null,
    device: null,
  });
  assert.deepEqual(
    response.errors?.map((e) => [e.path, e.extensions?.code, e.extensions?.serviceName]).sort(),
    [
      [['decodeDtcs'], 'SUBGRAPH_UNAVAILABLE', 'vehicle-data'],
      [['device'], 'SUBGRAPH_UNAVAILABLE', 'fleet-core'],
    ],
  );
  assert.doesNotMatch(JSON.stringify(response.errors), /127\.0\.0\.1|ECONNREFUSED|stack/);
});

test("the client's request id is in every log line of the gateway and of geodecode for its request", async () => {
  const token = await issuer.token({ uid: 'u-2', email: 'logs@example.test' });
  await postGraphQL(`${gatewayUrl}/graphql`, QUERY, { token }); // warm-up
  gatewayLines.length = 0;
  geodecodeLines.length = 0;
  const response = await postGraphQL(`${gatewayUrl}/graphql`, QUERY, {
    token,
    headers: { 'x-request-id': 'e2e-request-7' },
  });
  assert.equal(response.headers['x-request-id'], 'e2e-request-7');
  // gateway: request received, two failed subgraph calls, request completed
  assert.equal(gatewayLines.filter((l) => l.msg === 'subgraph call failed').length, 2);
  for (const line of gatewayLines) assert.equal(line.requestId, 'e2e-request-7', JSON.stringify(line));
  // geodecode: its request received and completed
  assert.ok(geodecodeLines.some((l) => l.msg === 'request completed'));
  for (const line of geodecodeLines) assert.equal(line.requestId, 'e2e-request-7', JSON.stringify(line));
});

test('/readyz is 200 but degraded, naming the subgraphs that are down; geodecode is ready', async () => {
  const response = await fetch(`${gatewayUrl}/readyz`);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { status: string; checks: Record<string, string> };
  assert.equal(body.status, 'degraded');
  assert.match(body.checks.subgraphs ?? '', /^degraded: /);
  assert.match(body.checks.subgraphs ?? '', /fleet-core \(unreachable\)/);
  assert.match(body.checks.subgraphs ?? '', /vehicle-data \(unreachable\)/);
  assert.doesNotMatch(body.checks.subgraphs ?? '', /geodecode/);
  // The gateway's own (cache) subgraph runs in-process: it is not probed.
  assert.doesNotMatch(body.checks.subgraphs ?? '', /gateway/);
});
