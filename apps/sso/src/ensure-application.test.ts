/** ensureApplication: an application with caller-chosen credentials, created once, then kept in line. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureApplication, findApplication, listApplications } from './data/applications';
import { basicAuth, postToken, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
before(async () => {
  sso = await startSso('ensure_application');
});
after(() => sso?.close());

const explorer = (redirectUri: string, clientSecret: string) => ({
  clientId: 'fg_explorer_test',
  clientSecret,
  name: 'Fleetgraph explorer',
  redirectUris: [redirectUri],
  confidential: true,
  allowedScopes: ['public', 'read', 'write'],
  grantTypes: ['authorization_code', 'refresh_token'],
});

test('creates the application on first call, then updates redirect URIs and secret in place', async () => {
  const first = await ensureApplication(
    sso.knex,
    explorer('http://localhost:4000/explorer/callback', 's1-secret'),
  );
  assert.equal(first.clientId, 'fg_explorer_test');
  assert.deepEqual(first.redirectUris, ['http://localhost:4000/explorer/callback']);

  const second = await ensureApplication(
    sso.knex,
    explorer('http://localhost:5000/explorer/callback', 's2-secret'),
  );
  assert.deepEqual(second.redirectUris, ['http://localhost:5000/explorer/callback']);
  assert.equal(
    (await listApplications(sso.knex)).filter((app) => app.clientId === 'fg_explorer_test').length,
    1,
    'still one application',
  );
  assert.equal((await findApplication(sso.knex, 'fg_explorer_test'))?.confidential, true);

  // The latest secret authenticates the client at the token endpoint; the earlier one no longer does.
  const params = { grant_type: 'refresh_token', refresh_token: 'not-a-real-token' };
  const withOld = await postToken(sso.app, params, {
    headers: { authorization: basicAuth('fg_explorer_test', 's1-secret') },
  });
  assert.equal(withOld.json().error, 'invalid_client');
  const withNew = await postToken(sso.app, params, {
    headers: { authorization: basicAuth('fg_explorer_test', 's2-secret') },
  });
  assert.equal(withNew.json().error, 'invalid_grant', 'the client authenticated; only the token is wrong');
});
