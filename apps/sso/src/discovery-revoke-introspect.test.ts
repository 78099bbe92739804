import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRevocationList } from '@fleetgraph/auth';
import {
  basicAuth,
  decodePart,
  insertApplication,
  insertUser,
  postToken,
  startSso,
  TEST_ISSUER,
  type SsoHarness,
} from './test-harness';

const revocations = createRevocationList();
let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
let client: Awaited<ReturnType<typeof insertApplication>>;
let resourceServer: Awaited<ReturnType<typeof insertApplication>>;
before(async () => {
  sso = await startSso('discovery', {}, { revocations });
  user = await insertUser(sso.knex);
  client = await insertApplication(sso.knex);
  resourceServer = await insertApplication(sso.knex, { name: 'Resource server' });
});
after(() => sso?.close());

const auth = (app: typeof client) => ({ authorization: basicAuth(app.clientId, app.clientSecret!) });
const login = async (app = client) => {
  const res = await postToken(
    sso.app,
    { grant_type: 'password', username: user.email, password: user.password },
    { headers: auth(app) },
  );
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { access_token: string; refresh_token: string };
};
const form = (url: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  sso.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(params).toString(),
  });
const revoke = (params: Record<string, string>, app = client) => form('/oauth/revoke', params, auth(app));
const introspect = (token: string, headers: Record<string, string> = auth(resourceServer)) =>
  form('/oauth/introspect', { token }, headers);
const me = (token: string) =>
  sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

describe('discovery', () => {
  test('both metadata documents list the issuer, endpoints and supported values', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await sso.app.inject({ url: path });
      assert.equal(res.statusCode, 200);
      const m = res.json();
      assert.equal(m.issuer, TEST_ISSUER);
      assert.equal(m.authorization_endpoint, `${TEST_ISSUER}/oauth/authorize`);
      assert.equal(m.token_endpoint, `${TEST_ISSUER}/oauth/token`);
      assert.equal(m.jwks_uri, `${TEST_ISSUER}/.well-known/jwks.json`);
      assert.equal(m.revocation_endpoint, `${TEST_ISSUER}/oauth/revoke`);
      assert.equal(m.introspection_endpoint, `${TEST_ISSUER}/oauth/introspect`);
      assert.equal(m.userinfo_endpoint, `${TEST_ISSUER}/api/v1/users/me`);
      assert.deepEqual(m.response_types_supported, ['code']);
      assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(m.token_endpoint_auth_methods_supported, [
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]);
      assert.deepEqual([...m.grant_types_supported].sort(), [
        'authorization_code',
        'password',
        'refresh_token',
      ]);
      assert.ok(m.scopes_supported.includes('public'));
    }
  });
});

describe('revocation (RFC 7009)', () => {
  test('revoking a refresh token revokes its family, access tokens included, and publishes them', async () => {
    const tokens = await login();
    const res = await revoke({ token: tokens.refresh_token, token_type_hint: 'refresh_token' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(
      (
        await postToken(
          sso.app,
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
          { headers: auth(client) },
        )
      ).json().error,
      'invalid_grant',
    );
    assert.equal((await me(tokens.access_token)).statusCode, 401);
    assert.equal(await revocations.isRevoked(decodePart(tokens.access_token, 1).jti), true);
    assert.ok(await sso.knex('sso.audit_log').where({ event: 'token.revoked' }).first());
  });

  test('revoking an access token records its jti revoked; the refresh token lives on', async () => {
    const tokens = await login();
    const res = await revoke({ token: tokens.access_token });
    assert.equal(res.statusCode, 200);
    assert.equal((await me(tokens.access_token)).statusCode, 401);
    const { jti } = decodePart(tokens.access_token, 1);
    assert.ok((await sso.knex('sso.access_tokens').where({ jti }).first()).revoked_at);
    assert.equal(await revocations.isRevoked(jti), true);
    assert.equal(
      (
        await postToken(
          sso.app,
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
          { headers: auth(client) },
        )
      ).statusCode,
      200,
    );
  });

  test('unknown or garbage tokens answer 200; a missing token is invalid_request; a bad client is invalid_client', async () => {
    assert.equal((await revoke({ token: 'no-such-token' })).statusCode, 200);
    assert.equal((await revoke({ token: 'a.b.c' })).statusCode, 200);
    assert.equal((await revoke({})).json().error, 'invalid_request');
    const bad = await form(
      '/oauth/revoke',
      { token: 'x' },
      { authorization: basicAuth(client.clientId, 'wrong') },
    );
    assert.equal(bad.statusCode, 401);
    assert.match(String(bad.headers['www-authenticate']), /^Basic /);
  });

  test("another client cannot revoke a client's tokens (200, nothing happens)", async () => {
    const tokens = await login();
    assert.equal((await revoke({ token: tokens.refresh_token }, resourceServer)).statusCode, 200);
    assert.equal((await revoke({ token: tokens.access_token }, resourceServer)).statusCode, 200);
    assert.equal((await me(tokens.access_token)).statusCode, 200);
  });
});

describe('introspection (RFC 7662)', () => {
  test('an active access token and refresh token are described', async () => {
    const tokens = await login();
    const access = await introspect(tokens.access_token);
    assert.equal(access.statusCode, 200, access.body);
    const a = access.json();
    assert.equal(a.active, true);
    assert.equal(a.client_id, client.clientId);
    assert.equal(a.username, user.email);
    assert.equal(a.sub, user.id);
    assert.equal(a.scope, 'public');
    assert.equal(a.iss, TEST_ISSUER);
    assert.equal(typeof a.exp, 'number');
    const refresh = (await introspect(tokens.refresh_token)).json();
    assert.equal(refresh.active, true);
    assert.equal(refresh.token_type, 'refresh_token');
    assert.equal(refresh.client_id, client.clientId);
  });

  test('revoked, rotated, expired and unknown tokens are active: false and nothing else', async () => {
    const tokens = await login();
    const rotated = await postToken(
      sso.app,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { headers: auth(client) },
    );
    assert.deepEqual((await introspect(tokens.refresh_token)).json(), { active: false });
    await revoke({ token: rotated.json().access_token });
    assert.deepEqual((await introspect(rotated.json().access_token)).json(), { active: false });
    const expiring = await login();
    await sso
      .knex('sso.refresh_tokens')
      .update({ expires_at: new Date(Date.now() - 1000) })
      .where({ user_id: user.id })
      .whereNull('rotated_at');
    assert.deepEqual((await introspect(expiring.refresh_token)).json(), { active: false });
    assert.deepEqual((await introspect('garbage')).json(), { active: false });
  });

  test('introspection needs an authenticated confidential client', async () => {
    const tokens = await login();
    const none = await introspect(tokens.access_token, {});
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error, 'invalid_client');
    const wrong = await introspect(tokens.access_token, {
      authorization: basicAuth(resourceServer.clientId, 'wrong'),
    });
    assert.equal(wrong.statusCode, 401);
    const publicClient = await insertApplication(sso.knex, { confidential: false });
    const pub = await form('/oauth/introspect', {
      token: tokens.access_token,
      client_id: publicClient.clientId,
    });
    assert.equal(pub.statusCode, 401);
  });
});
