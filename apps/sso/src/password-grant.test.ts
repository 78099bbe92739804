import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet } from 'jose';
import { createTokenVerifier } from '@fleetgraph/auth';
import {
  decodePart,
  insertApplication,
  insertUser,
  postToken,
  startSso,
  TEST_ISSUER,
  type SsoHarness,
} from './test-harness';
import { decoyHash, hashPassword } from './passwords';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
before(async () => {
  sso = await startSso('password');
  user = await insertUser(sso.knex, { email: 'Owner@Example.test', fullName: 'Olga Owner', language: 'de' });
});
after(() => sso?.close());

function assertNoStore(res: { headers: Record<string, unknown> }) {
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['pragma'], 'no-cache');
}

describe('password grant', () => {
  test('answers exactly the spec 5.4 fields, uncacheable', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assertNoStore(res);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'access_token',
      'created_at',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(typeof body.access_token, 'string');
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.expires_in, 7200);
    assert.ok(Number.isInteger(body.expires_in));
    assert.match(body.refresh_token, /^[A-Za-z0-9_-]{43}$/, 'a 256-bit base64url refresh token');
    assert.equal(body.scope, 'public');
    assert.ok(Number.isInteger(body.created_at));
    assert.ok(body.created_at >= before && body.created_at <= Math.floor(Date.now() / 1000));
  });

  test('the access token carries the spec 5.1 header and claims plus sub and aud', async () => {
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
    });
    const body = res.json();
    const header = decodePart(body.access_token, 0);
    const { keys } = (await sso.app.inject({ url: '/.well-known/jwks.json' })).json();
    assert.deepEqual(header, { alg: 'RS256', typ: 'JWT', provider: 'fleetgraph-sso', kid: keys[0].kid });

    const claims = decodePart(body.access_token, 1);
    assert.deepEqual(Object.keys(claims).sort(), ['aud', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub', 'user']);
    assert.equal(claims.iss, TEST_ISSUER);
    assert.equal(claims.iat, body.created_at);
    assert.equal(claims.exp, claims.iat + 7200);
    assert.match(claims.jti, UUID_V4);
    assert.equal(claims.scope, 'public');
    assert.deepEqual(claims.user, { uid: user.id, email: user.email, full_name: 'Olga Owner' });
    assert.equal(claims.sub, user.id);
    assert.equal(claims.aud, 'fleetgraph');

    const recorded = await sso.knex('sso.access_tokens').where({ jti: claims.jti }).first();
    assert.equal(recorded.user_id, user.id);
    assert.equal(recorded.revoked_at, null);
  });

  test('the access token verifies with the platform verifier against the published JWKS', async () => {
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
    });
    const jwks = (await sso.app.inject({ url: '/.well-known/jwks.json' })).json();
    const verifier = createTokenVerifier({
      issuer: TEST_ISSUER,
      audience: 'fleetgraph',
      jwks: createLocalJWKSet(jwks),
    });
    const context = await verifier.verify(res.json().access_token);
    assert.equal(context.uid, user.id);
    assert.equal(context.email, user.email);
    assert.equal(context.fullName, 'Olga Owner');
    assert.deepEqual(context.scopes, ['public']);
  });

  test('the username matches the email case-insensitively, and JSON bodies are accepted', async () => {
    const res = await postToken(
      sso.app,
      { grant_type: 'password', username: 'owner@EXAMPLE.TEST', password: user.password },
      { json: true },
    );
    assert.equal(res.statusCode, 200);
    assert.equal(decodePart(res.json().access_token, 1).user.uid, user.id);
  });

  test('an authenticated client given with the password grant is put in the token', async () => {
    const client = await insertApplication(sso.knex, { grantTypes: ['password', 'refresh_token'] });
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(decodePart(res.json().access_token, 1).client_id, client.clientId);
  });

  test('a wrong password and an unknown user get the same invalid_grant, uncacheable', async () => {
    const wrong = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: 'not the password',
    });
    const unknown = await postToken(sso.app, {
      grant_type: 'password',
      username: 'nobody@example.test',
      password: 'whatever',
    });
    for (const res of [wrong, unknown]) {
      assert.equal(res.statusCode, 400);
      assertNoStore(res);
      assert.equal(res.json().error, 'invalid_grant');
      assert.equal(typeof res.json().error_description, 'string');
    }
    assert.deepEqual(wrong.json(), unknown.json());
  });

  test('an unknown user is checked against a decoy hash with the same argon2id cost as real hashes', async () => {
    // The unknown-user path verifies against decoyHash() (see oauth/grants/password.ts); it costs what a
    // wrong password costs exactly when both hashes carry the same algorithm and parameters.
    const params = (hash: string) => hash.split('$').slice(1, 4).join('$');
    const real = await hashPassword('any password');
    assert.equal(params(await decoyHash()), params(real));
    assert.equal(params(real), 'argon2id$v=19$m=19456,t=2,p=1');
  });

  test('a disabled user is refused with invalid_grant even with the right password', async () => {
    const disabled = await insertUser(sso.knex, { disabled: true });
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: disabled.email,
      password: disabled.password,
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_grant');
  });

  test('a scope beyond public is invalid_scope', async () => {
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
      scope: 'public admin',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_scope');
  });
});
