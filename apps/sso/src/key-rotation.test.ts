import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdminCommand } from './admin/commands';
import { buildApp } from './app';
import { loadKeyStore } from './keys';
import { decodePart, insertUser, postToken, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
before(async () => {
  sso = await startSso('key_rotation');
  user = await insertUser(sso.knex);
});
after(() => sso?.close());

/** A fresh instance on the same database: what every instance sees once it reloads its keys. */
async function withInstance<T>(fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const app = await buildApp(sso.config);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}
const kidsOf = async (app: Awaited<ReturnType<typeof buildApp>>) =>
  (await app.inject({ url: '/.well-known/jwks.json' })).json().keys.map((k: { kid: string }) => k.kid);
const signedBy = async (app: Awaited<ReturnType<typeof buildApp>>) => {
  const token = (
    await postToken(app, { grant_type: 'password', username: user.email, password: user.password })
  ).json().access_token as string;
  return { token, kid: decodePart(token, 0).kid as string };
};

describe('key rotation', () => {
  test('a new key is published first, signs after the delay, and the old one stays published until its tokens expired', async () => {
    const [oldKid] = await kidsOf(sso.app);
    const { token: oldToken } = await signedBy(sso.app);

    const out = await runAdminCommand(sso.knex, ['keys', 'rotate', '--delay', '600']);
    const newKid = /key (\S+) published now/.exec(out.join('\n'))![1]!;

    // 1. Published at once, not yet signing.
    await withInstance(async (app) => {
      assert.deepEqual((await kidsOf(app)).sort(), [oldKid, newKid].sort());
      assert.equal((await signedBy(app)).kid, oldKid);
    });

    // 2. The delay has passed: the new key signs, the old one is retired but still published.
    await sso
      .knex('sso.signing_keys')
      .where({ kid: newKid })
      .update({ activated_at: new Date(Date.now() - 1000) });
    await sso
      .knex('sso.signing_keys')
      .where({ kid: oldKid })
      .update({ retired_at: new Date(Date.now() - 1000) });
    await withInstance(async (app) => {
      assert.deepEqual((await kidsOf(app)).sort(), [oldKid, newKid].sort());
      assert.equal((await signedBy(app)).kid, newKid);
      const me = await app.inject({
        url: '/api/v1/users/me',
        headers: { authorization: `Bearer ${oldToken}` },
      });
      assert.equal(me.statusCode, 200, 'tokens of the old key keep verifying');
    });

    // 3. 7200 s after retirement the old key is gone.
    await sso
      .knex('sso.signing_keys')
      .where({ kid: oldKid })
      .update({ retired_at: new Date(Date.now() - 7201_000) });
    await withInstance(async (app) => {
      assert.deepEqual(await kidsOf(app), [newKid]);
    });
    const listed = (await runAdminCommand(sso.knex, ['keys', 'list'])).join('\n');
    assert.match(listed, new RegExp(newKid));
  });

  test('a running key store switches to the new key at its activation time without a restart', async () => {
    // The store's clock: moved to the activation time instead of waiting for it.
    let clock = Date.now();
    const before = await loadKeyStore(sso.knex, { now: () => clock });
    const current = before.active().kid;
    const out = await runAdminCommand(sso.knex, ['keys', 'rotate', '--delay', '1']);
    const newKid = /key (\S+) published now/.exec(out.join('\n'))![1]!;
    const { activated_at: activatedAt } = await sso.knex('sso.signing_keys').where({ kid: newKid }).first();
    await before.reload();
    clock = new Date(activatedAt).getTime() - 1;
    assert.equal(before.active().kid, current, 'not before its activation time');
    assert.ok(before.publicKeys().some((k) => k.kid === newKid));
    clock += 1;
    assert.equal(before.active().kid, newKid);
    assert.ok(
      before.publicKeys().some((k) => k.kid === current),
      'the retired key is still published',
    );
  });
});
