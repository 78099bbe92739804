/** Expired records are removed; what still matters (live tokens, rotated ones not yet expired) stays. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { purgeExpired } from './data/purge';
import { insertUser, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
before(async () => {
  sso = await startSso('purge');
});
after(() => sso?.close());

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
const inFuture = (seconds: number) => new Date(Date.now() + seconds * 1000);

test('expired tokens, sessions, old failures and old audit rows go; live and still-detectable ones stay', async () => {
  const k = sso.knex;
  const user = await insertUser(k);
  const family = randomUUID();
  const refresh = (label: string, expiresAt: Date, rotated = false) => ({
    id: randomUUID(),
    token_hash: label,
    family_id: family,
    user_id: user.id,
    scope: 'public',
    expires_at: expiresAt,
    rotated_at: rotated ? ago(60) : null,
  });
  await k('sso.refresh_tokens').insert([
    refresh('expired-long-ago', ago(3 * 86_400), true),
    refresh('expired-an-hour-ago', ago(3600), true),
    refresh('rotated-not-expired', inFuture(86_400), true),
    refresh('live', inFuture(86_400)),
  ]);
  const access = (expiresAt: Date) => ({
    jti: randomUUID(),
    user_id: user.id,
    family_id: family,
    expires_at: expiresAt,
  });
  const oldAccess = access(ago(2 * 86_400));
  const liveAccess = access(inFuture(3600));
  await k('sso.access_tokens').insert([oldAccess, liveAccess]);
  await k('sso.sessions').insert([
    { id_hash: 'gone', user_id: user.id, expires_at: ago(1) },
    { id_hash: 'kept', user_id: user.id, expires_at: inFuture(3600) },
  ]);
  await k('sso.auth_failures').insert([
    { key: 'ip:old', at: ago(3600) },
    { key: 'ip:recent', at: ago(60) },
  ]);
  await k('sso.audit_log').insert([
    { event: 'token.issued', at: ago(400 * 86_400) },
    { event: 'token.issued', at: ago(10 * 86_400) },
  ]);

  const removed = await purgeExpired(k, { auditRetentionDays: 365 });
  assert.deepEqual(removed, {
    refreshTokens: 1,
    accessTokens: 1,
    authorizationCodes: 0,
    sessions: 1,
    authFailures: 1,
    auditLog: 1,
  });
  assert.deepEqual(
    (await k('sso.refresh_tokens').where({ family_id: family }).orderBy('token_hash')).map(
      (r) => r.token_hash,
    ),
    ['expired-an-hour-ago', 'live', 'rotated-not-expired'],
  );
  assert.deepEqual(
    (await k('sso.access_tokens').where({ family_id: family })).map((r) => r.jti),
    [liveAccess.jti],
  );
  assert.deepEqual(
    (await k('sso.sessions').where({ user_id: user.id })).map((r) => r.id_hash),
    ['kept'],
  );
  assert.deepEqual(
    (await k('sso.auth_failures').whereIn('key', ['ip:old', 'ip:recent'])).map((r) => r.key),
    ['ip:recent'],
  );
  assert.equal((await k('sso.audit_log').where('at', '<', ago(300 * 86_400))).length, 0);
  assert.ok((await k('sso.audit_log').where('at', '>', ago(11 * 86_400))).length >= 1);
});

test('a bad retention setting stops the config with the variable named', async () => {
  const { loadSsoConfig } = await import('./config');
  assert.throws(() => loadSsoConfig({ AUDIT_RETENTION_DAYS: '0' }), /AUDIT_RETENTION_DAYS/);
  assert.throws(() => loadSsoConfig({ PURGE_INTERVAL_SECONDS: 'hourly' }), /PURGE_INTERVAL_SECONDS/);
});
