import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateJwkThumbprint } from 'jose';
import { buildApp } from './app';
import { decodePart, insertUser, postToken, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
before(async () => {
  sso = await startSso('keys');
});
after(() => sso?.close());

describe('signing keys and JWKS', () => {
  test('the JWKS publishes the RS256 public key, kid = its RFC 7638 thumbprint, cacheable for minutes', async () => {
    const res = await sso.app.inject({ url: '/.well-known/jwks.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['cache-control']), /max-age=(\d{3})/);
    const { keys } = res.json();
    assert.equal(keys.length, 1);
    const [key] = keys;
    assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    assert.equal(key.kty, 'RSA');
    assert.equal(key.alg, 'RS256');
    assert.equal(key.use, 'sig');
    assert.equal(Buffer.from(key.n, 'base64url').length * 8, 2048);
    assert.equal(key.kid, await calculateJwkThumbprint({ kty: key.kty, n: key.n, e: key.e }, 'sha256'));
  });

  test('the key persists across restarts on the same database (same kid)', async () => {
    const { keys: before } = (await sso.app.inject({ url: '/.well-known/jwks.json' })).json();
    const again = await buildApp(sso.config);
    try {
      const { keys: after } = (await again.inject({ url: '/.well-known/jwks.json' })).json();
      assert.deepEqual(after, before);
      // A token of one instance is accepted by the other.
      const user = await insertUser(sso.knex);
      const token = (
        await postToken(sso.app, { grant_type: 'password', username: user.email, password: user.password })
      ).json().access_token;
      assert.equal(decodePart(token, 0).kid, before[0].kid);
      const me = await again.inject({
        url: '/api/v1/users/me',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(me.statusCode, 200);
    } finally {
      await again.close();
    }
    assert.equal(
      await sso
        .knex('sso.signing_keys')
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n)),
      1,
    );
  });

  test('instances starting at once on an empty key table create exactly one key', async () => {
    // Retired longer ago than the retention period: no longer published, no longer usable.
    await sso.knex('sso.signing_keys').update({ retired_at: new Date(Date.now() - 3 * 3600 * 1000) });
    const apps = await Promise.all([buildApp(sso.config), buildApp(sso.config), buildApp(sso.config)]);
    try {
      const kids = await Promise.all(
        apps.map(async (app) =>
          (await app.inject({ url: '/.well-known/jwks.json' })).json().keys.map((k: any) => k.kid),
        ),
      );
      assert.equal(kids[0].length, 1);
      assert.deepEqual(kids[1], kids[0]);
      assert.deepEqual(kids[2], kids[0]);
      const active = await sso.knex('sso.signing_keys').whereNull('retired_at');
      assert.equal(active.length, 1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});
