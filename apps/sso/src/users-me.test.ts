import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { insertUser, postToken, startSso, TEST_ISSUER, type SsoHarness } from './test-harness';

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
let accessToken: string;
before(async () => {
  sso = await startSso('users_me');
  user = await insertUser(sso.knex, { fullName: 'Mia Me', language: 'fr' });
  const res = await postToken(sso.app, {
    grant_type: 'password',
    username: user.email,
    password: user.password,
  });
  accessToken = res.json().access_token;
});
after(() => sso?.close());

function assertInvalidToken(res: { statusCode: number; headers: Record<string, unknown>; json(): any }) {
  assert.equal(res.statusCode, 401);
  assert.match(String(res.headers['www-authenticate']), /^Bearer .*error="invalid_token"/);
  assert.equal(res.json().error, 'invalid_token');
  assert.equal(typeof res.json().error_description, 'string');
}

describe('GET /api/v1/users/me', () => {
  test('the access_token query parameter gives the profile of spec 5.6', async () => {
    const res = await sso.app.inject({
      url: `/api/v1/users/me?access_token=${encodeURIComponent(accessToken)}`,
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.json(), { uid: user.id, full_name: 'Mia Me', email: user.email, language: 'fr' });
  });

  test('an Authorization: Bearer header works too', async () => {
    const res = await sso.app.inject({
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().uid, user.id);
  });

  test('no token is 401 invalid_token with WWW-Authenticate', async () => {
    assertInvalidToken(await sso.app.inject({ url: '/api/v1/users/me' }));
  });

  test('a garbage, tampered or foreign token is 401 invalid_token', async () => {
    assertInvalidToken(await sso.app.inject({ url: '/api/v1/users/me?access_token=garbage' }));
    const [h, p, s] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8'));
    const forged = Buffer.from(
      JSON.stringify({ ...claims, user: { ...claims.user, email: 'x@evil.test' } }),
    ).toString('base64url');
    assertInvalidToken(
      await sso.app.inject({
        url: '/api/v1/users/me',
        headers: { authorization: `Bearer ${h}.${forged}.${s}` },
      }),
    );

    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ ...claims, jti: randomUUID() })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        kid: JSON.parse(Buffer.from(h!, 'base64url').toString()).kid,
      })
      .sign(privateKey);
    assertInvalidToken(
      await sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${foreign}` } }),
    );
    assert.equal(claims.iss, TEST_ISSUER);
  });

  test('a revoked access token is 401 invalid_token', async () => {
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
    });
    const token = res.json().access_token;
    const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).jti;
    assert.equal(
      (await sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
      200,
    );
    await sso.knex('sso.access_tokens').where({ jti }).update({ revoked_at: new Date() });
    assertInvalidToken(
      await sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } }),
    );
  });

  test('a token in both the query and the header is invalid_request', async () => {
    const res = await sso.app.inject({
      url: `/api/v1/users/me?access_token=${encodeURIComponent(accessToken)}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_request');
  });
});
