/**
 * The database away (frozen, or stopped) costs a subgraph request a bounded wait and a retryable
 * answer: HTTP 503, `extensions.code: SERVICE_UNAVAILABLE` with `retryable: true`, Retry-After;
 * never INTERNAL_SERVER_ERROR or a hang; and the subgraph recovers by itself. The outage is a TCP
 * proxy between a second fleet-core app and the harness's database.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { injectGraphQL, startFaultProxy, type FaultProxy } from '@fleetgraph/testing';
import manifest from './manifest';
import { F } from './testing/fixture';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let proxy: FaultProxy;
let app: FastifyInstance;

before(async () => {
  h = await startHarness('fleet_outage');
  proxy = await startFaultProxy(h.databaseUrl);
  const config = manifest.loadConfig({
    SSO_ISSUER: h.issuer.issuer,
    LOG_LEVEL: 'silent',
    DATABASE_STATEMENT_TIMEOUT_MS: '300',
    DATABASE_CONNECT_TIMEOUT_MS: '300',
    DATABASE_ACQUIRE_TIMEOUT_MS: '300',
  });
  app = await manifest.buildApp(
    { ...config, databaseUrl: proxy.url },
    { jwks: h.issuer.jwks, migrate: false },
  );
});
after(async () => {
  await app?.close();
  await proxy?.close();
  await h?.close();
});

const QUERY = '{ account { fullName } }';
const ask = async () => injectGraphQL(app, QUERY, { token: await h.issuer.token(F.alice) });

async function recovers(): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await ask();
    if (res.status === 200 && res.data?.account?.fullName === F.alice.fullName) return;
  }
  assert.fail('fleet-core did not recover once the database was back');
}

/** A frozen database never answers: a 503 here can only come from the configured bounds firing. */
async function assertUnavailable(): Promise<void> {
  const res = await ask();
  assert.equal(res.status, 503, JSON.stringify(res));
  assert.equal(res.errors?.[0]?.extensions?.code, 'SERVICE_UNAVAILABLE');
  assert.equal(res.errors?.[0]?.extensions?.retryable, true);
  assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After');
}

test('through the proxy, with the database there, the query is served', async () => {
  const res = await ask();
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.equal(res.data.account.fullName, F.alice.fullName);
});

for (const [state, breakIt] of [
  ['frozen', () => proxy.freeze()],
  ['stopped', () => proxy.stop()],
] as const) {
  test(`a ${state} database is HTTP 503 SERVICE_UNAVAILABLE (retryable) with Retry-After, then recovery; readiness says so`, async () => {
    breakIt();
    try {
      await assertUnavailable();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
    } finally {
      proxy.resume();
    }
    await recovers();
  });
}
