/**
 * Batched refresh rotation (data/refresh-rotation.ts): concurrent refreshes leave together in one
 * statement, each gets its own family's tokens and its own user's claims, and a batch that fails
 * hands every request to the slow path instead of failing it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createKnex } from '@fleetgraph/db';
import { createRotationBatcher } from './data/refresh-rotation';
import { hashRefreshToken } from './data/refresh-tokens';
import { decodePart, insertUser, postToken, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
let statements: string[] | null = null;
before(async () => {
  sso = await startSso('rotation', {}, { onQuery: (sql) => statements?.push(sql) });
});
after(() => sso?.close());

async function loginAs(user: Awaited<ReturnType<typeof insertUser>>) {
  const res = await postToken(sso.app, {
    grant_type: 'password',
    username: user.email,
    password: user.password,
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { access_token: string; refresh_token: string };
}

describe('batched refresh rotation', () => {
  test('concurrent refreshes of different logins each rotate once, with their own user and family', async () => {
    const users = await Promise.all(
      Array.from({ length: 4 }, (_, i) => insertUser(sso.knex, { fullName: `Batch User ${i}` })),
    );
    const logins = await Promise.all(users.flatMap((user) => [loginAs(user), loginAs(user)]));
    statements = [];
    const answers = await Promise.all(
      logins.map((login) =>
        postToken(sso.app, { grant_type: 'refresh_token', refresh_token: login.refresh_token }),
      ),
    );
    const rotations = statements.filter((sql) => sql.includes('json_to_recordset'));
    statements = null;
    assert.ok(
      rotations.length < logins.length,
      `${logins.length} refreshes were sent in ${rotations.length} rotation statements`,
    );

    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.statusCode, 200, answer.body);
      const user = users[Math.floor(i / 2)]!;
      const claims = decodePart(answer.json().access_token, 1);
      assert.deepEqual(claims.user, { uid: user.id, email: user.email, full_name: user.fullName });
      const old = await sso
        .knex('sso.refresh_tokens')
        .where({ token_hash: hashRefreshToken(logins[i]!.refresh_token) })
        .first();
      const fresh = await sso
        .knex('sso.refresh_tokens')
        .where({ token_hash: hashRefreshToken(answer.json().refresh_token) })
        .first();
      assert.ok(old.rotated_at, 'the presented token is rotated');
      assert.equal(fresh.family_id, old.family_id, 'the new token continues the same family');
      assert.equal(fresh.rotated_at, null);
      const access = await sso.knex('sso.access_tokens').where({ jti: claims.jti }).first();
      assert.equal(access.family_id, old.family_id);
    }
  });

  test('a batch whose statement fails answers nothing for each request and reports the error', async () => {
    const errors: unknown[] = [];
    // Nothing listens on port 1: every statement of this batcher fails to get a connection.
    const unreachable = createKnex({ url: 'postgres://postgres@127.0.0.1:1/none' });
    const failing = createRotationBatcher(unreachable, {
      refreshTtlSeconds: 60,
      onError: (error) => errors.push(error),
    });
    const request = {
      tokenHash: 'x',
      clientId: null,
      newId: '00000000-0000-4000-8000-000000000000',
      newHash: 'y',
      jti: '00000000-0000-4000-8000-000000000001',
      accessExpiresAt: new Date(),
      ip: null,
    };
    assert.deepEqual(await Promise.all([failing.rotate(request), failing.rotate(request)]), [
      undefined,
      undefined,
    ]);
    assert.ok(errors.length >= 1);
    await unreachable.destroy();
  });
});
