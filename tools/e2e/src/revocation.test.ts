/**
 * Revocation reaches the gateway: when the SSO revokes a token family (a rotated refresh token
 * presented again), the family's access token is refused by the gateway within seconds, while
 * an unrelated login keeps working; a plain refresh does the same to the access token it
 * supersedes ("rotated away").
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

let stack: Stack;
before(async () => {
  stack = await startStack('e2e_revocation');
});
after(() => stack?.close());

async function token(form: Record<string, string>) {
  const response = await fetch(`${stack.platform.urls.sso}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const query = (accessToken: string) =>
  postGraphQL(stack.platform.urls.graphql, '{ account { email } }', { token: accessToken });

/** Bounded wait: the gateway may reuse a "not revoked" answer for its cache period (1 s here). */
async function refusedWithinSeconds(accessToken: string): Promise<boolean> {
  for (let attempt = 0; attempt < 25; attempt++) {
    const res = await query(accessToken);
    if (res.status === 401 && res.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED') return true;
    await sleep(200);
  }
  return false;
}

test('a rotated-away access token is refused by the gateway within seconds; the new one works', async () => {
  const login = await token({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD });
  assert.equal((await query(login.body.access_token!)).data?.account.email, DEMO_EMAIL);
  const rotated = await token({ grant_type: 'refresh_token', refresh_token: login.body.refresh_token! });
  assert.equal(rotated.status, 200);
  assert.ok(await refusedWithinSeconds(login.body.access_token!), 'the superseded access token is refused');
  assert.equal((await query(rotated.body.access_token!)).data?.account.email, DEMO_EMAIL);
});

test('a revoked token family is refused by the gateway within seconds; other logins are not', async () => {
  const login = await token({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD });
  const other = await token({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD });
  assert.equal((await query(login.body.access_token!)).data?.account.email, DEMO_EMAIL);

  const rotated = await token({ grant_type: 'refresh_token', refresh_token: login.body.refresh_token! });
  assert.equal(rotated.status, 200);
  const reuse = await token({ grant_type: 'refresh_token', refresh_token: login.body.refresh_token! });
  assert.equal(reuse.status, 400);
  assert.equal(reuse.body.error, 'invalid_grant');

  assert.ok(await refusedWithinSeconds(login.body.access_token!), 'the revoked access token is refused');
  assert.equal(
    (await query(rotated.body.access_token!)).status,
    401,
    'the rotated-in token of the same family is revoked too',
  );
  assert.equal(
    (await query(other.body.access_token!)).data?.account.email,
    DEMO_EMAIL,
    'another login is untouched',
  );
});

test('a revoked access token is refused by a subgraph called directly too', async () => {
  const login = await token({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD });
  const fleetCore = stack.platform.urls.subgraphs['fleet-core']!;
  const direct = () =>
    postGraphQL(fleetCore, '{ account { email } }', {
      token: login.body.access_token!,
      headers: stack.platform.subgraphHeaders,
    });
  assert.equal((await direct()).data?.account.email, DEMO_EMAIL, 'control: the subgraph accepts it');
  const revoke = await fetch(`${stack.platform.urls.sso}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: login.body.refresh_token! }),
  });
  assert.equal(revoke.status, 200);
  let refused = false;
  for (let attempt = 0; attempt < 25 && !refused; attempt++) {
    const response = await direct();
    refused = response.status === 401 && response.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED';
    if (!refused) await sleep(200);
  }
  assert.ok(refused, 'fleet-core refuses the revoked token');
});
