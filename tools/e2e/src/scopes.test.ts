/**
 * Scopes mean what the consent page says (libs/auth scopes.ts): a `public` token reads the whole
 * graph the user can see; a `profile` token reads the signed-in account's profile fields and
 * nothing of the fleet, through the gateway and on a subgraph's port alike, where anything more is
 * refused whole with HTTP 403 INSUFFICIENT_SCOPE (never served, never silently dropped).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { postGraphQL } from '@fleetgraph/testing';
import { startStack, type Stack } from './stack';

let stack: Stack;
const tokens: Record<string, string> = {};
before(async () => {
  stack = await startStack('e2e_scopes', { RATE_LIMIT_PER_MINUTE: '0' });
  for (const scope of ['public', 'profile']) {
    const response = await fetch(`${stack.platform.urls.sso}/oauth/token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: DEMO_EMAIL,
        password: DEMO_PASSWORD,
        scope,
      }),
    });
    const body = (await response.json()) as { access_token: string; scope: string };
    assert.equal(body.scope, scope);
    tokens[scope] = body.access_token;
  }
});
after(() => stack?.close());

const FLEET = '{ devices(pageSize: 1) { list { id } } }';
const PROFILE = '{ account { id fullName email language } }';
const viaGateway = (scope: string, query: string) =>
  postGraphQL(stack.platform.urls.graphql, query, { token: tokens[scope] });
const direct = (scope: string, query: string) =>
  postGraphQL(stack.platform.urls.subgraphs['fleet-core']!, query, {
    token: tokens[scope],
    headers: stack.platform.subgraphHeaders,
  });

function assertRefused(answer: Awaited<ReturnType<typeof viaGateway>>, field: string) {
  assert.equal(answer.status, 403, JSON.stringify(answer));
  assert.ok(!answer.data, 'nothing served');
  assert.equal(answer.errors?.[0]?.extensions?.code, 'INSUFFICIENT_SCOPE');
  assert.equal(answer.errors?.[0]?.extensions?.field, field);
}

test('a public token reads the profile and the fleet', async () => {
  const profile = await viaGateway('public', PROFILE);
  assert.equal(profile.data?.account.email, DEMO_EMAIL, JSON.stringify(profile));
  const fleet = await viaGateway('public', FLEET);
  assert.equal(fleet.errors, undefined, JSON.stringify(fleet.errors));
  assert.equal(fleet.data?.devices.list.length, 1);
});

test('a profile token reads the profile fields, through the gateway and directly', async () => {
  for (const answer of [await viaGateway('profile', PROFILE), await direct('profile', PROFILE)]) {
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    assert.equal(answer.data?.account.email, DEMO_EMAIL);
  }
});

test('a profile token asking fleet data is refused whole, at the gateway and on the subgraph port', async () => {
  assertRefused(await viaGateway('profile', FLEET), 'devices');
  assertRefused(
    await viaGateway('profile', '{ account { fullName groups { list { label } } } }'),
    'account.groups',
  );
  assertRefused(
    await viaGateway('profile', `${PROFILE.slice(0, -1)} devices(pageSize: 1) { count } }`),
    'devices',
  );
  assertRefused(await direct('profile', FLEET), 'devices');
  const viaFragment = 'query { ...F } fragment F on Query { account { fullName organizationId } }';
  assertRefused(await viaGateway('profile', viaFragment), 'account.organizationId');
});
