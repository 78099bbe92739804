import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRevocationList } from '@fleetgraph/auth';
import { validateApplicationSettings } from './data/application-input';
import {
  basicAuth,
  Browser,
  csrfFrom,
  decodePart,
  formActionFrom,
  insertUser,
  postToken,
  startSso,
  type SsoHarness,
} from './test-harness';

const revocations = createRevocationList();
let sso: SsoHarness;
before(async () => {
  sso = await startSso('app_pages', {}, { revocations });
});
after(() => sso?.close());

async function signedIn(user: { email: string; password: string }) {
  const browser = new Browser(sso.app);
  const start = await browser.get('/applications');
  assert.equal(start.statusCode, 303);
  assert.equal(start.headers.location, '/sign-in?next=%2Fapplications');
  const page = await browser.get(String(start.headers.location));
  assert.equal(page.statusCode, 200);
  const res = await browser.post(formActionFrom(page.body), {
    csrf_token: csrfFrom(page.body),
    email: user.email,
    password: user.password,
  });
  assert.equal(res.statusCode, 303);
  assert.equal(res.headers.location, '/applications');
  return browser;
}

async function register(browser: Browser, fields: Record<string, string | string[]>) {
  const form = await browser.get('/applications/new');
  const body = new URLSearchParams({ csrf_token: csrfFrom(form.body) });
  for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) body.append(k, value);
  return sso.app.inject({
    method: 'POST',
    url: '/applications',
    headers: {
      cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: body.toString(),
  });
}

describe('application pages', () => {
  test('register shows client_id and the secret once; the list shows the app without the secret', async () => {
    const user = await insertUser(sso.knex);
    const browser = await signedIn(user);
    const created = await register(browser, {
      name: 'Depot Tablet',
      redirect_uris: 'https://depot.example.test/cb\nhttp://127.0.0.1/cb',
      client_type: 'confidential',
      scopes: ['public', 'read'],
      grant_types: ['authorization_code', 'refresh_token', 'password'],
    });
    assert.equal(created.statusCode, 201, created.body);
    const clientId = /id="client-id">([^<]+)</.exec(created.body)![1]!;
    const secret = /id="client-secret">([^<]+)</.exec(created.body)![1]!;
    assert.match(created.body, /shown only this once/);
    const row = await sso.knex('sso.applications').where({ client_id: clientId }).first();
    assert.equal(row.owner_user_id, user.id);
    assert.deepEqual(row.allowed_scopes, ['public', 'read']);

    const list = await browser.get('/applications');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /Depot Tablet/);
    assert.match(list.body, new RegExp(clientId));
    assert.doesNotMatch(list.body, new RegExp(secret));

    const token = await postToken(
      sso.app,
      { grant_type: 'password', username: user.email, password: user.password },
      { headers: { authorization: basicAuth(clientId, secret) } },
    );
    assert.equal(token.statusCode, 200, 'the shown secret works');
  });

  test('invalid settings are listed and nothing is created', async () => {
    const user = await insertUser(sso.knex);
    const browser = await signedIn(user);
    const res = await register(browser, {
      name: '',
      redirect_uris: 'http://evil.example.test/cb\nhttps://a.test/#frag',
      grant_types: ['refresh_token'],
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /role="alert"/);
    assert.match(res.body, /must use https/);
    assert.match(res.body, /fragment/);
    assert.match(res.body, /name must be/);
    assert.equal((await sso.knex('sso.applications').where({ owner_user_id: user.id })).length, 0);
  });

  test('edit, rotate the secret and delete; only the owner can, and every POST needs the CSRF token', async () => {
    const owner = await insertUser(sso.knex);
    const browser = await signedIn(owner);
    const created = await register(browser, {
      name: 'Yard App',
      redirect_uris: 'https://yard.example.test/cb',
      client_type: 'confidential',
      scopes: 'public',
      grant_types: ['password', 'refresh_token'],
    });
    const clientId = /id="client-id">([^<]+)</.exec(created.body)![1]!;
    const oldSecret = /id="client-secret">([^<]+)</.exec(created.body)![1]!;

    const edit = await browser.get(`/applications/${clientId}`);
    assert.equal(edit.statusCode, 200);
    const csrf = csrfFrom(edit.body);
    assert.equal(
      (await browser.post(`/applications/${clientId}`, { name: 'Hacked' })).statusCode,
      403,
      'no CSRF token',
    );
    const saved = await browser.post(`/applications/${clientId}`, {
      csrf_token: csrf,
      name: 'Yard App 2',
      redirect_uris: 'https://yard.example.test/cb2',
      scopes: 'public',
      grant_types: 'password',
    });
    assert.equal(saved.statusCode, 303);
    const row = await sso.knex('sso.applications').where({ client_id: clientId }).first();
    assert.equal(row.name, 'Yard App 2');
    assert.deepEqual(row.redirect_uris, ['https://yard.example.test/cb2']);

    // Another user sees nothing of it and can change nothing.
    const stranger = await signedIn(await insertUser(sso.knex));
    assert.equal((await stranger.get(`/applications/${clientId}`)).statusCode, 404);
    const strangerCsrf = csrfFrom((await stranger.get('/applications/new')).body);
    assert.equal(
      (await stranger.post(`/applications/${clientId}/delete`, { csrf_token: strangerCsrf })).statusCode,
      404,
    );
    assert.doesNotMatch((await stranger.get('/applications')).body, new RegExp(clientId));

    const login = (secret: string) =>
      postToken(
        sso.app,
        { grant_type: 'password', username: owner.email, password: owner.password },
        { headers: { authorization: basicAuth(clientId, secret) } },
      );
    const before = await login(oldSecret);
    assert.equal(before.statusCode, 200);
    assert.equal(
      (await browser.post(`/applications/${clientId}/rotate-secret`, {})).statusCode,
      403,
      'no CSRF token',
    );
    const rotated = await browser.post(`/applications/${clientId}/rotate-secret`, { csrf_token: csrf });
    assert.equal(rotated.statusCode, 200);
    const newSecret = /id="client-secret">([^<]+)</.exec(rotated.body)![1]!;
    assert.equal((await login(oldSecret)).statusCode, 401);
    assert.equal((await login(newSecret)).statusCode, 200);

    const deleted = await browser.post(`/applications/${clientId}/delete`, { csrf_token: csrf });
    assert.equal(deleted.statusCode, 303);
    assert.equal(await sso.knex('sso.applications').where({ client_id: clientId }).first(), undefined);
    assert.equal(
      await revocations.isRevoked(decodePart(before.json().access_token, 1).jti),
      true,
      'its access tokens are revoked',
    );
  });

  test('a client id holding a NUL character is a 404 page on every application route, never a 500', async () => {
    const browser = await signedIn(await insertUser(sso.knex));
    const csrf = csrfFrom((await browser.get('/applications/new')).body);
    const form = { csrf_token: csrf, name: 'x', redirect_uris: 'https://a.example.test/cb' };
    const answers = [
      await browser.get('/applications/%00'),
      await browser.post('/applications/%00', form),
      await browser.post('/applications/fg_%00x/rotate-secret', { csrf_token: csrf }),
      await browser.post('/applications/%00/delete', { csrf_token: csrf }),
    ];
    for (const answer of answers) {
      assert.equal(answer.statusCode, 404, answer.body.slice(0, 200));
      assert.match(answer.headers['content-type'] as string, /text\/html/);
    }
  });

  test('sign-out ends the session; next= cannot point outside the application pages', async () => {
    const user = await insertUser(sso.knex);
    const browser = await signedIn(user);
    const list = await browser.get('/applications');
    const out = await browser.post('/sign-out', { csrf_token: csrfFrom(list.body) });
    assert.equal(out.statusCode, 303);
    assert.equal((await browser.get('/applications')).statusCode, 303);

    const page = await browser.get('/sign-in?next=https://evil.example.test/');
    assert.match(page.body, /action="\/sign-in\?next=%2Fapplications"/);
  });

  test('application settings validation', () => {
    assert.deepEqual(
      validateApplicationSettings({
        name: 'A',
        redirectUris: ['com.example.app:/cb', 'http://[::1]/cb', 'http://localhost:3000/cb'],
      }).problems,
      [],
    );
    assert.equal(
      validateApplicationSettings({ name: 'A', redirectUris: ['javascript:alert(1)'] }).problems.length,
      1,
    );
    assert.equal(
      validateApplicationSettings({ name: 'A', redirectUris: ['https://a.test/', 'https://a.test/'] })
        .problems.length,
      1,
    );
  });
});
