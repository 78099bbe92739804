import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SCOPES } from '@fleetgraph/auth';
import { createRevocationList } from '@fleetgraph/auth';
import { hashCode } from './data/authorization-codes';
import {
  authorizeUrl,
  basicAuth,
  Browser,
  csrfFrom,
  decodePart,
  formActionFrom,
  insertApplication,
  insertUser,
  pkcePair,
  postToken,
  REDIRECT_URI,
  signInAndApprove,
  startSso,
  TEST_ISSUER,
  type SsoHarness,
} from './test-harness';

const revocations = createRevocationList();
let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
let client: Awaited<ReturnType<typeof insertApplication>>;
before(async () => {
  sso = await startSso('authcode', {}, { revocations });
  user = await insertUser(sso.knex, { fullName: 'Ada Lovelace' });
  client = await insertApplication(sso.knex, { name: 'Route Planner' });
});
after(() => sso?.close());

const me = (token: string) =>
  sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

async function getCode(extra: Record<string, string> = {}, app = client, browser = new Browser(sso.app)) {
  const redirect = await signInAndApprove(
    browser,
    authorizeUrl({
      client_id: app.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      state: 'st-123',
      ...extra,
    }),
    user,
  );
  assert.equal(redirect.origin + redirect.pathname, REDIRECT_URI);
  assert.equal(redirect.searchParams.get('state'), 'st-123');
  assert.equal(redirect.searchParams.get('iss'), TEST_ISSUER);
  const code = redirect.searchParams.get('code');
  assert.ok(code, `no code in ${redirect}`);
  return code;
}

const exchange = (code: string, extra: Record<string, string> = {}, app = client) =>
  postToken(
    sso.app,
    { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...extra },
    app.clientSecret ? { headers: { authorization: basicAuth(app.clientId, app.clientSecret) } } : {},
  );

function assertRedirectError(res: { statusCode: number; headers: Record<string, unknown> }, error: string) {
  assert.ok([302, 303].includes(res.statusCode), `expected a redirect, got ${res.statusCode}`);
  const location = new URL(String(res.headers.location));
  assert.equal(location.origin + location.pathname, REDIRECT_URI);
  assert.equal(location.searchParams.get('error'), error);
  assert.equal(location.searchParams.get('state'), 'st-1');
  assert.equal(location.searchParams.get('code'), null);
}

describe('authorization endpoint: pages', () => {
  test('sign-in page, consent page naming the application and scopes, then a redirect with code and state', async () => {
    const browser = new Browser(sso.app);
    const url = authorizeUrl({
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      state: 'xyz',
      scope: 'public read',
    });
    const signIn = await browser.get(url);
    assert.equal(signIn.statusCode, 200);
    assert.match(String(signIn.headers['content-type']), /^text\/html/);
    assert.equal(signIn.headers['cache-control'], 'no-store');
    assert.equal(signIn.headers['x-frame-options'], 'DENY');
    assert.match(signIn.body, /<label for="email">/);
    assert.match(signIn.body, /<label for="password">/);
    assert.match(signIn.body, /Route Planner/);
    assert.match(signIn.body, /:focus-visible/);
    assert.doesNotMatch(signIn.body, /<script|https?:\/\/(?!www\.w3)/i, 'no scripts, no external resources');
    const csrfCookie = (
      signIn.cookies as { name: string; httpOnly?: boolean; sameSite?: string; secure?: boolean }[]
    ).find((c) => c.name === 'fg_csrf');
    assert.ok(csrfCookie?.httpOnly);
    assert.equal(csrfCookie?.sameSite, 'Lax');
    assert.ok(!csrfCookie?.secure, 'not Secure over http');

    const signedIn = await browser.post(formActionFrom(signIn.body), {
      csrf_token: csrfFrom(signIn.body),
      email: user.email,
      password: user.password,
    });
    assert.equal(signedIn.statusCode, 303);
    const session = (signedIn.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]).find(
      (c) => c.name === 'fg_session',
    );
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Lax');
    assert.equal(String(signedIn.headers.location), url);

    const consent = await browser.get(String(signedIn.headers.location));
    assert.equal(consent.statusCode, 200);
    assert.match(consent.body, /Route Planner/);
    // Each requested scope with exactly what the graph lets it read (libs/auth scopes.ts).
    for (const scope of SCOPES.filter((s) => ['public', 'read'].includes(s.name))) {
      assert.ok(consent.body.includes(scope.title), scope.title);
      assert.ok(
        consent.body.includes(scope.description.replace(/'/g, '&#39;')) ||
          consent.body.includes(scope.description),
        scope.description,
      );
    }
    assert.match(consent.body, new RegExp(user.email.replace(/[.]/g, '\\.')));
    const approved = await browser.post(formActionFrom(consent.body), {
      csrf_token: csrfFrom(consent.body),
      decision: 'approve',
    });
    assert.equal(approved.statusCode, 303);
    const location = new URL(String(approved.headers.location));
    assert.equal(location.searchParams.get('state'), 'xyz');
    assert.ok(location.searchParams.get('code'));

    const tokens = await exchange(location.searchParams.get('code')!);
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.deepEqual(Object.keys(tokens.json()).sort(), [
      'access_token',
      'created_at',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(tokens.json().scope, 'public read');
    const claims = decodePart(tokens.json().access_token, 1);
    assert.equal(claims.client_id, client.clientId);
    assert.equal(claims.aud, 'fleetgraph');
    assert.equal(claims.user.uid, user.id);
    assert.equal((await me(tokens.json().access_token)).statusCode, 200);

    const refreshed = await postToken(
      sso.app,
      { grant_type: 'refresh_token', refresh_token: tokens.json().refresh_token },
      { headers: { authorization: basicAuth(client.clientId, client.clientSecret!) } },
    );
    assert.equal(refreshed.statusCode, 200, refreshed.body);
  });

  test('consent is remembered per user and application: the next authorization redirects at once', async () => {
    const app = await insertApplication(sso.knex, { name: 'Remembered' });
    const browser = new Browser(sso.app);
    await getCode({ scope: 'public' }, app, browser);
    const again = await browser.get(
      authorizeUrl({
        client_id: app.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        state: 's',
        scope: 'public',
      }),
    );
    assert.equal(again.statusCode, 302);
    assert.ok(new URL(String(again.headers.location)).searchParams.get('code'));
    // A wider scope than approved asks again.
    const wider = await browser.get(
      authorizeUrl({
        client_id: app.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'public read',
      }),
    );
    assert.equal(wider.statusCode, 200);
    assert.match(wider.body, /name="decision"/);
    // Another application asks for its own consent.
    const other = await insertApplication(sso.knex, { name: 'Other app' });
    const otherRes = await browser.get(
      authorizeUrl({ client_id: other.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' }),
    );
    assert.match(otherRes.body, /Other app/);
    assert.match(otherRes.body, /name="decision"/);
  });

  test('deny redirects with access_denied and the state', async () => {
    const app = await insertApplication(sso.knex, { name: 'Denied' });
    const browser = new Browser(sso.app);
    const url = authorizeUrl({
      client_id: app.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      state: 'st-1',
    });
    const signIn = await browser.get(url);
    const signedIn = await browser.post(formActionFrom(signIn.body), {
      csrf_token: csrfFrom(signIn.body),
      email: user.email,
      password: user.password,
    });
    const consent = await browser.get(String(signedIn.headers.location));
    assertRedirectError(
      await browser.post(formActionFrom(consent.body), {
        csrf_token: csrfFrom(consent.body),
        decision: 'deny',
      }),
      'access_denied',
    );
  });

  test('CSRF: a missing or wrong token on sign-in or consent is refused (403), nothing happens', async () => {
    const app = await insertApplication(sso.knex, { name: 'CSRF' });
    const browser = new Browser(sso.app);
    const url = authorizeUrl({ client_id: app.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' });
    const signIn = await browser.get(url);
    const action = formActionFrom(signIn.body);
    const missing = await browser.post(action, { email: user.email, password: user.password });
    assert.equal(missing.statusCode, 403);
    assert.equal(browser.cookies.has('fg_session'), false);
    const wrong = await browser.post(action, {
      csrf_token: 'x'.repeat(43),
      email: user.email,
      password: user.password,
    });
    assert.equal(wrong.statusCode, 403);
    // A token from another browser is no good either (it is bound to this browser's cookie).
    const stranger = new Browser(sso.app);
    const strangerPage = await stranger.get(url);
    assert.equal(
      (
        await browser.post(action, {
          csrf_token: csrfFrom(strangerPage.body),
          email: user.email,
          password: user.password,
        })
      ).statusCode,
      403,
    );
    assert.equal(browser.cookies.has('fg_session'), false);

    const signedIn = await browser.post(action, {
      csrf_token: csrfFrom(signIn.body),
      email: user.email,
      password: user.password,
    });
    assert.equal(signedIn.statusCode, 303);
    const consent = await browser.get(url);
    const noToken = await browser.post(formActionFrom(consent.body), { decision: 'approve' });
    assert.equal(noToken.statusCode, 403);
    assert.equal(noToken.headers.location, undefined);
    const badToken = await browser.post(formActionFrom(consent.body), {
      csrf_token: csrfFrom(strangerPage.body),
      decision: 'approve',
    });
    assert.equal(badToken.statusCode, 403);
    assert.equal(await sso.knex('sso.consents').where({ client_id: app.clientId }).first(), undefined);
  });

  test('a wrong password re-renders the sign-in page (401) without a session', async () => {
    const browser = new Browser(sso.app);
    const signIn = await browser.get(
      authorizeUrl({ client_id: client.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' }),
    );
    const res = await browser.post(formActionFrom(signIn.body), {
      csrf_token: csrfFrom(signIn.body),
      email: user.email,
      password: 'nope',
    });
    assert.equal(res.statusCode, 401);
    assert.match(res.body, /role="alert"/);
    assert.equal(browser.cookies.has('fg_session'), false);
  });
});

describe('authorization endpoint: request checks', () => {
  const base = () => ({
    client_id: client.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    state: 'st-1',
  });

  test('an unknown client or an unregistered redirect_uri renders an error page and never redirects', async () => {
    for (const params of [
      { ...base(), client_id: 'fg_unknown' },
      { ...base(), client_id: undefined },
      { ...base(), redirect_uri: 'https://evil.example.test/callback' },
      { ...base(), redirect_uri: `${REDIRECT_URI}/more` },
      { ...base(), redirect_uri: `${REDIRECT_URI}?x=1` },
      { ...base(), redirect_uri: REDIRECT_URI.replace('https', 'http') },
    ]) {
      const res = await sso.app.inject({ url: authorizeUrl(params) });
      assert.equal(res.statusCode, 400, JSON.stringify(params));
      assert.equal(res.headers.location, undefined);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.doesNotMatch(res.body, /evil\.example/);
    }
  });

  test('a body the pages cannot read (malformed JSON, XML, too large) is a 4xx page, never a 500', async () => {
    const query = new URL(authorizeUrl(base()), 'http://sso.test').search;
    const bodies = [
      { type: 'application/json', payload: '{bad', status: 400, says: /could not be read/ },
      { type: 'application/xml', payload: '<a/>', status: 415, says: /not sent as a web form/ },
      {
        type: 'application/x-www-form-urlencoded',
        payload: 'a'.repeat(2_000_000),
        status: 413,
        says: /too large/,
      },
    ];
    for (const path of ['/oauth/authorize/sign-in', '/oauth/authorize'])
      for (const { type, payload, status, says } of bodies) {
        const res = await sso.app.inject({
          method: 'POST',
          url: `${path}${query}`,
          headers: { 'content-type': type },
          payload,
        });
        assert.equal(res.statusCode, status, `${path} ${type}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.match(res.body, /This request could not be read/);
        assert.match(res.body, says);
        assert.equal(res.headers.location, undefined);
      }
  });

  test('loopback redirect URIs may differ in port only', async () => {
    const native = await insertApplication(sso.knex, {
      confidential: false,
      redirectUris: ['http://127.0.0.1/cb', 'http://[::1]/cb'],
    });
    const { challenge } = pkcePair();
    const ask = (redirect_uri: string) =>
      sso.app.inject({
        url: authorizeUrl({
          client_id: native.clientId,
          redirect_uri,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      });
    assert.equal((await ask('http://127.0.0.1:53111/cb')).statusCode, 200);
    assert.equal((await ask('http://[::1]:8080/cb')).statusCode, 200);
    assert.equal((await ask('http://127.0.0.1:53111/other')).statusCode, 400);
    assert.equal((await ask('http://localhost:53111/cb')).statusCode, 400);
    assert.equal((await ask('https://127.0.0.1:53111/cb')).statusCode, 400);
  });

  test('with a trusted redirect_uri, other errors redirect back with error and state', async () => {
    const get = (params: Record<string, string | undefined>) => sso.app.inject({ url: authorizeUrl(params) });
    assertRedirectError(await get({ ...base(), response_type: 'token' }), 'unsupported_response_type');
    assertRedirectError(await get({ ...base(), response_type: undefined }), 'invalid_request');
    assertRedirectError(await get({ ...base(), scope: 'public write' }), 'invalid_scope');
    assertRedirectError(
      await get({ ...base(), code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }),
      'invalid_request',
    );
    assertRedirectError(await get({ ...base(), code_challenge: 'short' }), 'invalid_request');
    const public_ = await insertApplication(sso.knex, { confidential: false });
    assertRedirectError(await get({ ...base(), client_id: public_.clientId }), 'invalid_request');
    const noCodeGrant = await insertApplication(sso.knex, { grantTypes: ['password'] });
    assertRedirectError(await get({ ...base(), client_id: noCodeGrant.clientId }), 'unauthorized_client');
  });
});

describe('authorization_code grant', () => {
  test('redirect_uri must equal the one of the authorization request', async () => {
    const code = await getCode();
    const missing = await postToken(
      sso.app,
      { grant_type: 'authorization_code', code },
      { headers: { authorization: basicAuth(client.clientId, client.clientSecret!) } },
    );
    assert.equal(missing.json().error, 'invalid_grant');
    const other = await exchange(code, { redirect_uri: `${REDIRECT_URI}/` });
    assert.equal(other.statusCode, 400);
    assert.equal(other.json().error, 'invalid_grant');
    assert.equal((await exchange(code)).statusCode, 200, 'a refused attempt does not consume the code');
  });

  test('redirect_uri may be left out of the token request only if the authorization request left it out', async () => {
    const browser = new Browser(sso.app);
    const redirect = await signInAndApprove(
      browser,
      authorizeUrl({ client_id: client.clientId, response_type: 'code' }),
      user,
    );
    assert.equal(redirect.origin + redirect.pathname, REDIRECT_URI, 'the one registered URI is used');
    const code = redirect.searchParams.get('code')!;
    const res = await postToken(
      sso.app,
      { grant_type: 'authorization_code', code },
      { headers: { authorization: basicAuth(client.clientId, client.clientSecret!) } },
    );
    assert.equal(res.statusCode, 200, res.body);
  });

  test('PKCE S256: the right verifier works; a wrong one, a missing one and a downgrade are invalid_grant', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await getCode({ code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal((await exchange(code)).json().error, 'invalid_grant', 'verifier missing');
    assert.equal(
      (await exchange(code, { code_verifier: pkcePair().verifier })).json().error,
      'invalid_grant',
      'wrong verifier',
    );
    assert.equal((await exchange(code, { code_verifier: verifier })).statusCode, 200);

    const plainCode = await getCode();
    const downgrade = await exchange(plainCode, { code_verifier: verifier });
    assert.equal(downgrade.statusCode, 400);
    assert.equal(downgrade.json().error, 'invalid_grant');
    assert.match(downgrade.json().error_description, /code_challenge/);
  });

  test('a public client is never authorized silently: a remembered consent still shows the page', async () => {
    const native = await insertApplication(sso.knex, { confidential: false, name: 'Native Twice' });
    const browser = new Browser(sso.app);
    await getCode({ code_challenge: pkcePair().challenge }, native, browser);
    const again = await browser.get(
      authorizeUrl({
        client_id: native.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(again.statusCode, 200, 'the consent page, not a redirect with a code');
    assert.match(again.body, /Native Twice/);
    assert.match(again.body, /name="decision"/);
  });

  test('a public client: PKCE with client_id only (none), and its refresh tokens are bound to it', async () => {
    const native = await insertApplication(sso.knex, { confidential: false, name: 'Native' });
    const { verifier, challenge } = pkcePair();
    const code = await getCode({ code_challenge: challenge }, native);
    const res = await exchange(code, { client_id: native.clientId, code_verifier: verifier }, native);
    assert.equal(res.statusCode, 200, res.body);
    const refreshed = await postToken(sso.app, {
      grant_type: 'refresh_token',
      refresh_token: res.json().refresh_token,
      client_id: native.clientId,
    });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    // Cross-client: a confidential client cannot use the public client's refresh token.
    const cross = await postToken(
      sso.app,
      { grant_type: 'refresh_token', refresh_token: refreshed.json().refresh_token },
      { headers: { authorization: basicAuth(client.clientId, client.clientSecret!) } },
    );
    assert.equal(cross.json().error, 'invalid_grant');
  });

  test('the code endpoint requires client authentication and the code of this client', async () => {
    const code = await getCode();
    const anonymous = await postToken(sso.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
    });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().error, 'invalid_client');
    const other = await insertApplication(sso.knex);
    assert.equal((await exchange(code, {}, other)).json().error, 'invalid_grant');
    const wrongSecret = await postToken(
      sso.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      { headers: { authorization: basicAuth(client.clientId, 'nope') } },
    );
    assert.equal(wrongSecret.statusCode, 401);
    assert.match(String(wrongSecret.headers['www-authenticate']), /^Basic /);
  });

  test('codes expire (at most 10 minutes)', async () => {
    const code = await getCode();
    const row = await sso
      .knex('sso.authorization_codes')
      .where({ code_hash: hashCode(code) })
      .first();
    assert.ok(row.expires_at.getTime() - row.created_at.getTime() <= 600_000);
    await sso
      .knex('sso.authorization_codes')
      .where({ code_hash: hashCode(code) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    assert.equal((await exchange(code)).json().error, 'invalid_grant');
  });

  test('a code is single-use: a second use revokes every token issued from it', async () => {
    const code = await getCode();
    const first = await exchange(code);
    assert.equal(first.statusCode, 200);
    const { access_token, refresh_token } = first.json();
    assert.equal((await me(access_token)).statusCode, 200);

    const second = await exchange(code);
    assert.equal(second.statusCode, 400);
    assert.equal(second.json().error, 'invalid_grant');
    assert.equal((await me(access_token)).statusCode, 401, 'the access token of the first use is revoked');
    const refresh = await postToken(
      sso.app,
      { grant_type: 'refresh_token', refresh_token },
      { headers: { authorization: basicAuth(client.clientId, client.clientSecret!) } },
    );
    assert.equal(refresh.json().error, 'invalid_grant', 'the refresh token is revoked');
    assert.equal(
      await revocations.isRevoked(decodePart(access_token, 1).jti),
      true,
      'published to the shared revocation list',
    );
    assert.ok(await sso.knex('sso.audit_log').where({ event: 'code.reused' }).first());
  });
});
