/**
 * The database away (frozen, or stopped) is 503 temporarily_unavailable with Retry-After at the
 * token endpoint, within the configured bounds, never a 500 or a hang; the SSO recovers by itself
 * when the database is back. The outage is a TCP proxy between the SSO and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { startFaultProxy, type FaultProxy } from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadSsoConfig } from './config';
import { insertUser, postToken, startSso, TEST_ISSUER, type SsoHarness } from './test-harness';

let harness: SsoHarness;
let proxy: FaultProxy;
let app: FastifyInstance;
let user: Awaited<ReturnType<typeof insertUser>>;

before(async () => {
  harness = await startSso('outage');
  user = await insertUser(harness.knex);
  proxy = await startFaultProxy(harness.database.url);
  const config = loadSsoConfig({
    LOG_LEVEL: 'silent',
    SSO_ISSUER: TEST_ISSUER,
    PURGE_INTERVAL_SECONDS: '0',
    DATABASE_STATEMENT_TIMEOUT_MS: '300',
    DATABASE_CONNECT_TIMEOUT_MS: '300',
    DATABASE_ACQUIRE_TIMEOUT_MS: '300',
  });
  app = await buildApp({ ...config, databaseUrl: proxy.url });
});
after(async () => {
  await app?.close();
  await proxy?.close();
  await harness?.close();
});

const login = () => postToken(app, { grant_type: 'password', username: user.email, password: user.password });

async function recovers(): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await login()).statusCode === 200) return;
  }
  assert.fail('the SSO did not recover once the database was back');
}

/** A frozen database never answers: a 503 here can only come from the configured bounds firing. */
function assertUnavailable(response: Awaited<ReturnType<typeof login>>) {
  assert.equal(response.statusCode, 503, response.body);
  assert.equal(response.json().error, 'temporarily_unavailable');
  assert.ok(Number(response.headers['retry-after']) > 0, 'Retry-After');
}

test('the token endpoint works through the proxy while the database is there', async () => {
  const response = await login();
  assert.equal(response.statusCode, 200, response.body);
});

for (const [state, breakIt] of [
  ['frozen', () => proxy.freeze()],
  ['stopped', () => proxy.stop()],
] as const) {
  test(`a ${state} database is 503 temporarily_unavailable with Retry-After, then recovery`, async () => {
    breakIt();
    try {
      assertUnavailable(await login());
    } finally {
      proxy.resume();
    }
    await recovers();
  });
}
