/**
 * Revocations are durable and reach every verifier without Redis:
 * a token revoked before a restart stays refused after it, by the gateway and by a subgraph
 * called directly; the admin CLI (another process, writing only the database) disabling a user,
 * resetting a password or deleting an application reaches them too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { runAdminCommand } from '@fleetgraph/sso';
import { postGraphQL } from '@fleetgraph/testing';
import { startStack, type Stack } from './stack';

const NORTH = 'dispatcher.north@acme.example';
const GLOBEX = 'ops@globex.example';

let stack: Stack;
before(async () => {
  // The stack's environment has no REDIS_URL: the database is the only channel.
  stack = await startStack('e2e_revocation_durable');
});
after(() => stack?.close());

async function tokenEndpoint(
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${stack.platform.urls.sso}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, string> };
}

const login = async (email: string) =>
  (await tokenEndpoint('/oauth/token', { grant_type: 'password', username: email, password: DEMO_PASSWORD }))
    .body;

const viaGateway = (token: string) =>
  postGraphQL(stack.platform.urls.graphql, '{ account { email } }', { token });
const direct = (token: string) =>
  postGraphQL(stack.platform.urls.subgraphs['fleet-core']!, '{ account { email } }', {
    token,
    headers: stack.platform.subgraphHeaders,
  });

/** True once the gateway and fleet-core, called directly, both refuse the token (bounded: 2 s). */
async function refusedEverywhere(token: string): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const [gateway, subgraph] = await Promise.all([viaGateway(token), direct(token)]);
    if (gateway.status === 401 && subgraph.status === 401) return true;
    await sleep(50);
  }
  return false;
}

async function assertServed(token: string, email: string) {
  assert.equal((await viaGateway(token)).data?.account.email, email, 'served by the gateway');
  assert.equal((await direct(token)).data?.account.email, email, 'served by fleet-core directly');
}

test('a token revoked before a restart is refused after it, on the first request, by gateway and subgraph', async () => {
  const revoked = await login(DEMO_EMAIL);
  const kept = await login(DEMO_EMAIL);
  await assertServed(revoked.access_token!, DEMO_EMAIL);
  const answer = await tokenEndpoint('/oauth/revoke', { token: revoked.access_token! });
  assert.equal(answer.status, 200);
  assert.ok(await refusedEverywhere(revoked.access_token!), 'refused before the restart');

  await stack.restart();
  const [gateway, subgraph] = await Promise.all([
    viaGateway(revoked.access_token!),
    direct(revoked.access_token!),
  ]);
  assert.equal(gateway.status, 401, 'the restarted gateway refuses it at once');
  assert.equal(gateway.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  assert.equal(subgraph.status, 401, 'the restarted subgraph refuses it at once');
  await assertServed(kept.access_token!, DEMO_EMAIL);
});

test('the admin CLI disabling a user reaches the gateway and the subgraphs without Redis', async () => {
  const session = await login(NORTH);
  await assertServed(session.access_token!, NORTH);
  await runAdminCommand(stack.knex, ['user', 'disable', '--email', NORTH]);
  assert.ok(await refusedEverywhere(session.access_token!));
});

test('the admin CLI resetting a password reaches the gateway and the subgraphs without Redis', async () => {
  const session = await login(GLOBEX);
  await assertServed(session.access_token!, GLOBEX);
  await runAdminCommand(stack.knex, [
    'user',
    'reset-password',
    '--email',
    GLOBEX,
    '--password',
    'a-new-password-1',
  ]);
  assert.ok(await refusedEverywhere(session.access_token!));
});

test('the admin CLI deleting an application reaches the gateway and the subgraphs without Redis', async () => {
  const created = (
    await runAdminCommand(stack.knex, [
      'app',
      'create',
      '--name',
      'Doomed',
      '--redirect-uri',
      'https://doomed.example/cb',
      '--grants',
      'password refresh_token',
    ])
  ).join('\n');
  const clientId = /client_id: (\S+)/.exec(created)?.[1];
  const clientSecret = /client_secret[^:]*: (\S+)/.exec(created)?.[1];
  assert.ok(clientId && clientSecret, `client credentials printed: ${created}`);
  const session = await tokenEndpoint(
    '/oauth/token',
    { grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD },
    { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
  );
  assert.ok(session.body.access_token, JSON.stringify(session.body));
  await assertServed(session.body.access_token!, DEMO_EMAIL);
  await runAdminCommand(stack.knex, ['app', 'delete', '--client-id', clientId!]);
  assert.ok(await refusedEverywhere(session.body.access_token!));
});

const jtiOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { jti: string }).jti;

test('a notification forged by another app’s database role revokes nothing', async () => {
  const victim = await login(DEMO_EMAIL);
  await assertServed(victim.access_token!, DEMO_EMAIL);
  // vehicle-data's role cannot read the SSO's schema, but PostgreSQL lets any role NOTIFY on any
  // channel: it announces the victim's live token, and 2,000 made-up ids expiring in year 5138.
  const intruder = stack.connectAs('vehicle-data');
  await assert.rejects(intruder.raw('select count(*) from sso.access_tokens'), /permission denied/);
  await intruder.raw("select pg_notify('fleetgraph_revocations', ?)", [
    `${jtiOf(victim.access_token!)} 99999999999`,
  ]);
  await intruder.raw(
    "select pg_notify('fleetgraph_revocations', gen_random_uuid()::text || ' 99999999999 ' || repeat('x', 7000)) from generate_series(1, 2000)",
  );
  // A real revocation made after them: the verifiers take notifications in order, so once it is
  // in force everywhere the forged ones have been looked up too.
  const revoked = await login(DEMO_EMAIL);
  assert.equal((await tokenEndpoint('/oauth/revoke', { token: revoked.access_token! })).status, 200);
  assert.ok(await refusedEverywhere(revoked.access_token!), 'the real revocation is in force');
  await assertServed(victim.access_token!, DEMO_EMAIL);
});
