import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRevocationList } from '@fleetgraph/auth';
import { hashRefreshToken } from './data/refresh-tokens';
import {
  decodePart,
  insertApplication,
  insertUser,
  postToken,
  startSso,
  type SsoHarness,
} from './test-harness';

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
/** When set, every SQL statement the SSO sends is appended (statement-count tests). */
let statements: string[] | null = null;
/** The shared revocation list the gateway reads (in memory here; Redis in production). */
const revocations = createRevocationList({ cacheMs: 0 });
before(async () => {
  sso = await startSso('refresh', {}, { onQuery: (sql) => statements?.push(sql), revocations });
  user = await insertUser(sso.knex);
});
after(async () => {
  await sso?.close();
  await revocations.close();
});

async function login(extra: Record<string, string> = {}) {
  const res = await postToken(sso.app, {
    grant_type: 'password',
    username: user.email,
    password: user.password,
    ...extra,
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { access_token: string; refresh_token: string };
}

const refresh = (refresh_token: string, extra: Record<string, string> = {}) =>
  postToken(sso.app, { grant_type: 'refresh_token', refresh_token, ...extra });

const me = (token: string) =>
  sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

describe('refresh token grant', () => {
  test('a refresh token gives new tokens with the 5.4 fields and rotates', async () => {
    const first = await login();
    const res = await refresh(first.refresh_token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'access_token',
      'created_at',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.expires_in, 7200);
    assert.equal(body.scope, 'public');
    assert.notEqual(body.refresh_token, first.refresh_token);
    assert.notEqual(decodePart(body.access_token, 1).jti, decodePart(first.access_token, 1).jti);
    assert.equal(decodePart(body.access_token, 1).user.uid, user.id);

    const rows = await sso
      .knex('sso.refresh_tokens')
      .whereIn('token_hash', [hashRefreshToken(first.refresh_token), hashRefreshToken(body.refresh_token)])
      .select('token_hash', 'family_id', 'rotated_at');
    const old = rows.find((r) => r.token_hash === hashRefreshToken(first.refresh_token));
    const fresh = rows.find((r) => r.token_hash === hashRefreshToken(body.refresh_token));
    assert.ok(old.rotated_at, 'the used token is marked rotated');
    assert.equal(fresh.rotated_at, null);
    assert.equal(old.family_id, fresh.family_id, 'same family');

    // The new refresh token works in turn.
    assert.equal((await refresh(body.refresh_token)).statusCode, 200);
  });

  test('only hashes of refresh tokens are stored', async () => {
    const { refresh_token } = await login();
    const plain = await sso.knex('sso.refresh_tokens').where({ token_hash: refresh_token }).first();
    assert.equal(plain, undefined);
    assert.ok(
      await sso
        .knex('sso.refresh_tokens')
        .where({ token_hash: hashRefreshToken(refresh_token) })
        .first(),
    );
  });

  test('reusing a rotated refresh token revokes the whole family', async () => {
    const first = await login();
    const second = (await refresh(first.refresh_token)).json();
    const third = (await refresh(second.refresh_token)).json();
    assert.equal((await me(third.access_token)).statusCode, 200, 'control: the newest access token works');

    const reuse = await refresh(first.refresh_token);
    assert.equal(reuse.statusCode, 400);
    assert.equal(reuse.json().error, 'invalid_grant');
    assert.equal(reuse.headers['cache-control'], 'no-store');

    const newest = await refresh(third.refresh_token);
    assert.equal(newest.statusCode, 400, 'the newest refresh token of the family is revoked too');
    assert.equal(newest.json().error, 'invalid_grant');
    for (const token of [first.access_token, second.access_token, third.access_token]) {
      const res = await me(token);
      assert.equal(res.statusCode, 401, 'every access token of the family is revoked');
      assert.equal(res.json().error, 'invalid_token');
    }
  });

  test('a refresh revokes the access token it supersedes and publishes it to the revocation list', async () => {
    const first = await login();
    const other = await login();
    const res = await refresh(first.refresh_token);
    assert.equal(res.statusCode, 200, res.body);
    const second = res.json();
    const oldJti = decodePart(first.access_token, 1).jti;
    assert.equal((await me(first.access_token)).statusCode, 401, 'the rotated-away access token is refused');
    assert.equal((await me(second.access_token)).statusCode, 200, 'the new access token works');
    assert.equal(await revocations.isRevoked(oldJti), true, 'published for the gateway');
    assert.equal(await revocations.isRevoked(decodePart(second.access_token, 1).jti), false);
    assert.equal((await me(other.access_token)).statusCode, 200, "another login's access token is untouched");
    const row = await sso.knex('sso.access_tokens').where({ jti: oldJti }).first();
    assert.ok(row.revoked_at, 'recorded revoked in the database');
  });

  test('revoking one family leaves the other logins of the user working', async () => {
    const stolen = await login();
    const other = await login();
    await refresh(stolen.refresh_token);
    await refresh(stolen.refresh_token);
    assert.equal((await me(other.access_token)).statusCode, 200);
    assert.equal((await refresh(other.refresh_token)).statusCode, 200);
  });

  test('an unknown refresh token is invalid_grant', async () => {
    const res = await refresh('A'.repeat(43));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_grant');
  });

  test('an expired refresh token is invalid_grant', async () => {
    const { refresh_token } = await login();
    await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(refresh_token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await refresh(refresh_token);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_grant');
  });

  test('a refresh token bound to a client cannot be used by another client or without one', async () => {
    const a = await insertApplication(sso.knex);
    const b = await insertApplication(sso.knex);
    const credentials = (client: typeof a) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    const { refresh_token } = await login(credentials(a));
    const other = await refresh(refresh_token, credentials(b));
    assert.equal(other.statusCode, 400);
    assert.equal(other.json().error, 'invalid_grant');
    const none = await refresh(refresh_token);
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error, 'invalid_client');
    assert.match(String(none.headers['www-authenticate']), /^Basic /);

    const own = await refresh(refresh_token, credentials(a));
    assert.equal(own.statusCode, 200, 'refused attempts did not consume the token');
    assert.equal(decodePart(own.json().access_token, 1).client_id, a.clientId);
  });

  test('concurrent uses of one refresh token: exactly one wins', async () => {
    const { refresh_token } = await login();
    const results = await Promise.all([refresh(refresh_token), refresh(refresh_token)]);
    const codes = results.map((r) => r.statusCode).sort();
    assert.deepEqual(codes, [200, 400]);
  });

  test('a disabled user can no longer refresh', async () => {
    const victim = await insertUser(sso.knex);
    const res = await postToken(sso.app, {
      grant_type: 'password',
      username: victim.email,
      password: victim.password,
    });
    await sso.knex('sso.users').where({ id: victim.id }).update({ disabled: true });
    const refreshed = await refresh(res.json().refresh_token);
    assert.equal(refreshed.statusCode, 400);
    assert.equal(refreshed.json().error, 'invalid_grant');
  });

  test('a refresh is one statement, no transaction, and records the access token and audit row', async () => {
    const first = await login();
    statements = [];
    let res;
    try {
      res = await refresh(first.refresh_token);
    } finally {
      const sent = statements;
      statements = null;
      assert.equal(sent.length, 1, sent.join('\n'));
      assert.ok(!sent.some((sql) => /^\s*(begin|commit)|for update/i.test(sql)), sent.join('\n'));
    }
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    const claims = decodePart(body.access_token, 1);
    assert.deepEqual(claims.user, { uid: user.id, email: user.email, full_name: user.fullName });
    assert.equal(claims.sub, user.id);
    assert.equal(claims.scope, 'public');
    assert.equal(claims.exp - claims.iat, 7200);
    assert.equal(body.created_at, claims.iat);
    assert.deepEqual(decodePart(body.access_token, 0).alg, 'RS256');

    const old = await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(first.refresh_token) })
      .first();
    const fresh = await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(body.refresh_token) })
      .first();
    assert.equal(fresh.family_id, old.family_id);
    assert.equal(fresh.user_id, user.id);
    assert.equal(fresh.client_id, null);
    assert.equal(fresh.scope, 'public');
    const access = await sso.knex('sso.access_tokens').where({ jti: claims.jti }).first();
    assert.equal(access.family_id, old.family_id);
    assert.equal(access.user_id, user.id);
    assert.equal(access.revoked_at, null);
    assert.equal(new Date(access.expires_at).getTime(), claims.exp * 1000);
    const audited = await sso
      .knex('sso.audit_log')
      .where({ event: 'token.issued', user_id: user.id })
      .whereRaw("detail->>'grant' = 'refresh_token'")
      .where('at', '>=', old.rotated_at)
      .select('client_id', 'ip');
    assert.equal(audited.length, 1);
    assert.equal(audited[0].client_id, null);
    assert.ok(audited[0].ip);
    assert.equal((await me(body.access_token)).statusCode, 200);
  });

  test('many concurrent uses of one refresh token: exactly one wins, the family is revoked', async () => {
    const { refresh_token } = await login();
    const results = await Promise.all(Array.from({ length: 6 }, () => refresh(refresh_token)));
    const winners = results.filter((r) => r.statusCode === 200);
    assert.equal(winners.length, 1, results.map((r) => r.body).join('\n'));
    for (const loser of results.filter((r) => r.statusCode !== 200)) {
      assert.equal(loser.statusCode, 400);
      assert.equal(loser.json().error, 'invalid_grant');
    }
    const rows = await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(refresh_token) })
      .first();
    const family = await sso.knex('sso.refresh_tokens').where({ family_id: rows.family_id });
    assert.equal(family.length, 2, 'exactly one new refresh token was issued');
    const winner = winners[0]!.json();
    assert.equal((await refresh(winner.refresh_token)).statusCode, 400, 'reuse revoked the family');
    assert.equal((await me(winner.access_token)).statusCode, 401);
  });

  test('a scope parameter may only narrow the access token; a refused scope does not consume the token', async () => {
    const { refresh_token } = await login();
    await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(refresh_token) })
      .update({ scope: 'public read' });
    const wider = await refresh(refresh_token, { scope: 'read admin' });
    assert.equal(wider.statusCode, 400);
    assert.equal(wider.json().error, 'invalid_scope');
    const narrowed = await refresh(refresh_token, { scope: 'read' });
    assert.equal(narrowed.statusCode, 200, narrowed.body);
    assert.equal(narrowed.json().scope, 'read');
    assert.equal(decodePart(narrowed.json().access_token, 1).scope, 'read');
    const row = await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(narrowed.json().refresh_token) })
      .first();
    assert.equal(row.scope, 'public read', 'the new refresh token keeps the original scope (RFC 6749 6)');
    const widenedAgain = await refresh(narrowed.json().refresh_token, { scope: 'public read' });
    assert.equal(widenedAgain.statusCode, 200, 'a later refresh may ask for the original scope again');
    assert.equal(widenedAgain.json().scope, 'public read');
  });

  test('a refresh token revoked after login is refused and not rotated', async () => {
    const { refresh_token } = await login();
    await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(refresh_token) })
      .update({ revoked_at: new Date() });
    const res = await refresh(refresh_token);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_grant');
    const row = await sso
      .knex('sso.refresh_tokens')
      .where({ token_hash: hashRefreshToken(refresh_token) })
      .first();
    assert.equal(row.rotated_at, null);
  });
});
