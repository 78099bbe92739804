import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import {
  basicAuth,
  insertApplication,
  insertUser,
  postToken,
  startSso,
  type SsoHarness,
} from './test-harness';

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
before(async () => {
  sso = await startSso('token_errors');
  user = await insertUser(sso.knex);
});
after(() => sso?.close());

function assertOAuthError(res: LightMyRequestResponse, status: number, error: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['pragma'], 'no-cache');
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, 'string');
  assert.doesNotMatch(res.body, /at .*\.ts:\d+/, 'no stack trace');
}

describe('token endpoint errors', () => {
  test('GET on the token endpoint is 405 method_not_allowed naming POST; an unknown path is not_found', async () => {
    const get = await sso.app.inject({ method: 'GET', url: '/oauth/token' });
    assertOAuthError(get, 405, 'method_not_allowed');
    assert.equal(get.headers.allow, 'POST');
    assertOAuthError(await sso.app.inject({ method: 'POST', url: '/oauth/nothing' }), 404, 'not_found');
  });

  test('a missing grant_type is invalid_request', async () => {
    assertOAuthError(
      await postToken(sso.app, { username: user.email, password: user.password }),
      400,
      'invalid_request',
    );
  });

  test('a password grant without username or password is invalid_request naming them', async () => {
    const res = await postToken(sso.app, { grant_type: 'password' });
    assertOAuthError(res, 400, 'invalid_request');
    assert.match(res.json().error_description, /username, password/);
    assertOAuthError(
      await postToken(sso.app, { grant_type: 'password', username: user.email, password: '' }),
      400,
      'invalid_request',
    );
  });

  test('a refresh grant without refresh_token is invalid_request', async () => {
    assertOAuthError(await postToken(sso.app, { grant_type: 'refresh_token' }), 400, 'invalid_request');
  });

  test('an unknown grant type is unsupported_grant_type', async () => {
    for (const grant_type of [
      'client_credentials',
      'urn:ietf:params:oauth:grant-type:device_code',
      'nonsense',
    ]) {
      assertOAuthError(await postToken(sso.app, { grant_type }), 400, 'unsupported_grant_type');
    }
  });

  test('a repeated parameter is invalid_request', async () => {
    const res = await sso.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&grant_type=refresh_token&username=a&password=b',
    });
    assertOAuthError(res, 400, 'invalid_request');
  });

  test('a NUL character in any parameter is a clear refusal, never a server error', async () => {
    const form = (fields: Record<string, string>) =>
      sso.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    assertOAuthError(
      await form({ grant_type: 'password', username: 'a\u0000b', password: 'x' }),
      400,
      'invalid_request',
    );
    assertOAuthError(
      await form({ grant_type: 'password', username: 'a', password: 'x', client_id: 'a\u0000b' }),
      400,
      'invalid_request',
    );
    const basic = await sso.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('a%00b:secret').toString('base64')}`,
      },
      payload: 'grant_type=password&username=a&password=b',
    });
    assertOAuthError(basic, 401, 'invalid_client');
    for (const url of ['/oauth/revoke', '/oauth/introspect']) {
      const res = await sso.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: 't', client_id: 'a\u0000b' }).toString(),
      });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().error, 'invalid_request');
    }
    const authorize = await sso.app.inject({ url: `/oauth/authorize?client_id=a%00b&response_type=code` });
    assert.equal(authorize.statusCode, 400, 'an error page, not a redirect or a 500');
  });

  test('malformed or unexpected bodies are invalid_request, not 415 or 500', async () => {
    const cases = [
      { 'content-type': 'application/json', payload: '{"grant_type": "password",' },
      { 'content-type': 'application/json', payload: '["grant_type"]' },
      {
        'content-type': 'application/json',
        payload: '{"grant_type": "password", "username": 42, "password": "x"}',
      },
      { 'content-type': 'text/plain', payload: 'grant_type=password' },
      { 'content-type': 'application/xml', payload: '<grant_type>password</grant_type>' },
    ];
    for (const { payload, ...headers } of cases) {
      const res = await sso.app.inject({ method: 'POST', url: '/oauth/token', headers, payload });
      assertOAuthError(res, 400, 'invalid_request');
    }
    assertOAuthError(await sso.app.inject({ method: 'POST', url: '/oauth/token' }), 400, 'invalid_request');
  });

  test('malformed HTTP Basic client credentials are invalid_client, 401 with WWW-Authenticate', async () => {
    const res = await postToken(
      sso.app,
      { grant_type: 'password', username: user.email, password: user.password },
      { headers: { authorization: 'Basic !!!' } },
    );
    assertOAuthError(res, 401, 'invalid_client');
    assert.match(String(res.headers['www-authenticate']), /^Basic realm=/);
  });

  test('HTTP Basic client credentials name the client of the token', async () => {
    const client = await insertApplication(sso.knex);
    const res = await postToken(
      sso.app,
      { grant_type: 'password', username: user.email, password: user.password },
      { headers: { authorization: basicAuth(client.clientId, client.clientSecret!) } },
    );
    assert.equal(res.statusCode, 200);
    const claims = JSON.parse(
      Buffer.from(res.json().access_token.split('.')[1], 'base64url').toString('utf8'),
    );
    assert.equal(claims.client_id, client.clientId);
  });
});
