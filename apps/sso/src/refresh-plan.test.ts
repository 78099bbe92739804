/**
 * The batched refresh statement keeps its plan without table statistics (autovacuum off, or
 * right after migrating): the presented token is found through the token_hash index, never by
 * walking every live refresh token (63k entries and 17 ms per refresh were seen after a few
 * minutes of load). Proven on a database with 20,000 live tokens and no ANALYZE.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { assertNoStatistics, explainNodes } from '@fleetgraph/testing';
import { ROTATE_BATCH } from './data/refresh-rotation';
import { insertUser, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
before(async () => {
  sso = await startSso('refresh_plan', { PURGE_INTERVAL_SECONDS: '0' });
  user = await insertUser(sso.knex);
  await sso.knex.raw(
    `insert into sso.refresh_tokens (id, token_hash, family_id, user_id, scope, expires_at)
     select gen_random_uuid(), md5(g::text), gen_random_uuid(), ?, 'public', now() + interval '30 days'
       from generate_series(1, 20000) g`,
    [user.id],
  );
  await assertNoStatistics(sso.knex, 'sso', 'refresh_tokens');
});
after(() => sso?.close());

test('the presented refresh token is found by its token_hash index, whatever the statistics', async () => {
  for (const batch of [1, 32]) {
    const input = Array.from({ length: batch }, (_, n) => ({
      n,
      token_hash: `hash-${n}`,
      client_id: null,
      new_id: randomUUID(),
      new_hash: `new-${n}`,
      jti: randomUUID(),
      access_expires_at: new Date().toISOString(),
      ip: null,
    }));
    const all = await explainNodes(sso.knex, ROTATE_BATCH.text.replace('$1', '?').replace('$2', '?'), [
      JSON.stringify(input),
      3600,
    ]);
    const onRefreshTokens = all.filter(
      (node) => node['Relation Name'] === 'refresh_tokens' && node['Node Type'] !== 'ModifyTable',
    );
    assert.ok(onRefreshTokens.length > 0, 'the plan reads refresh_tokens');
    for (const node of onRefreshTokens) {
      assert.notEqual(node['Node Type'], 'Seq Scan', JSON.stringify(node));
      assert.match(
        node['Index Cond'] ?? '',
        /token_hash/,
        `looked up by token_hash: ${JSON.stringify({ ...node, Plans: undefined })}`,
      );
    }
  }
});
