import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  authorizeUrl,
  Browser,
  csrfFrom,
  formActionFrom,
  insertApplication,
  insertUser,
  REDIRECT_URI,
  startSso,
  type SsoHarness,
} from './test-harness';

let sso: SsoHarness;
before(async () => {
  sso = await startSso('https_cookies', {
    SSO_ISSUER: 'https://sso.example.test',
    SSO_TRUST_PROXY_HOPS: '1',
  });
});
after(() => sso?.close());

describe('behind a proxy (SSO_TRUST_PROXY_HOPS=1)', () => {
  test('the client address for throttling and audit comes from X-Forwarded-For', async () => {
    const user = await insertUser(sso.knex);
    await sso.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.7' },
      payload: new URLSearchParams({
        grant_type: 'password',
        username: user.email,
        password: 'wrong',
      }).toString(),
    });
    const row = await sso.knex('sso.audit_log').where({ event: 'token.refused', user_id: user.id }).first();
    assert.equal(row.ip, '203.0.113.7');
    assert.ok(await sso.knex('sso.auth_failures').where({ key: 'ip:203.0.113.7' }).first());
  });
});

describe('cookies when the issuer is https', () => {
  test('session and CSRF cookies are Secure, HttpOnly, SameSite=Lax, with __Host- names', async () => {
    const user = await insertUser(sso.knex);
    const app = await insertApplication(sso.knex);
    const browser = new Browser(sso.app);
    const signIn = await browser.get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' }),
    );
    const signedIn = await browser.post(formActionFrom(signIn.body), {
      csrf_token: csrfFrom(signIn.body),
      email: user.email,
      password: user.password,
    });
    assert.equal(signedIn.statusCode, 303);
    const cookies = [...(signIn.cookies as any[]), ...(signedIn.cookies as any[])];
    assert.deepEqual(cookies.map((c) => c.name).sort(), ['__Host-fg_csrf', '__Host-fg_session']);
    for (const c of cookies) {
      assert.equal(c.secure, true, c.name);
      assert.equal(c.httpOnly, true, c.name);
      assert.equal(c.sameSite, 'Lax', c.name);
      assert.equal(c.path, '/', c.name);
      assert.equal(c.domain, undefined, c.name);
    }
  });
});
