/**
 * Ids are data too: a restricted dispatcher (dispatcher.north, who sees only its depot's subtree)
 * reads its organization's client identifications, but `defaultAccountId` is null for an account
 * it does not see (as `defaultAccount` is), and filtering by such an id matches nothing. Through
 * the real SSO, gateway and fleet-core on the seeded demo data.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

const DISPATCHER = 'dispatcher.north@acme.example';

let stack: Stack;
before(async () => {
  stack = await startStack('e2e_account_ids');
});
after(() => stack?.close());

const query = async (email: string, document: string, variables: Record<string, unknown> = {}) => {
  const token = await stack.login(email, DEMO_PASSWORD);
  const res = await postGraphQL(stack.platform.urls.graphql, document, { token, variables });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data as any;
};

describe('account ids outside the caller’s visibility', () => {
  test('a restricted dispatcher gets null for defaultAccountId of accounts it does not see', async () => {
    const seen = await query(DISPATCHER, '{ accounts(pageSize: 100) { count list { id } } }');
    assert.ok(seen.accounts.count > 0 && seen.accounts.count <= 100);
    const visible = new Set<string>(seen.accounts.list.map((a: { id: string }) => a.id.toLowerCase()));

    const data = await query(
      DISPATCHER,
      '{ clientIdentifications(pageSize: 200) { count list { id defaultAccountId defaultAccount { id } } } }',
    );
    const list = data.clientIdentifications.list as {
      id: string;
      defaultAccountId: string | null;
      defaultAccount: { id: string } | null;
    }[];
    assert.ok(list.length > 0, 'the dispatcher reads its organization’s client identifications');

    const stored = new Map<string, string | null>(
      (
        (await stack
          .knex('fleet.client_identifications')
          .whereIn(
            'id',
            list.map((c) => c.id),
          )
          .select('id', 'default_account_id')) as { id: string; default_account_id: string | null }[]
      ).map((row) => [String(row.id).toLowerCase(), row.default_account_id]),
    );
    let hidden = 0;
    let shown = 0;
    for (const code of list) {
      const account = stored.get(code.id.toLowerCase());
      const expected = account && visible.has(account.toLowerCase()) ? account : null;
      if (account && !expected) hidden += 1;
      if (expected) shown += 1;
      assert.equal(code.defaultAccountId?.toLowerCase() ?? null, expected?.toLowerCase() ?? null, code.id);
      assert.equal(code.defaultAccount?.id.toLowerCase() ?? null, expected?.toLowerCase() ?? null, code.id);
    }
    assert.ok(hidden > 0, 'some codes name an account outside the dispatcher’s subtree');
    assert.ok(shown > 0, 'and some one inside it');
  });

  test('filtering by an account the dispatcher does not see matches nothing; the admin finds it', async () => {
    const visible = new Set<string>(
      (await query(DISPATCHER, '{ accounts(pageSize: 100) { list { id } } }')).accounts.list.map(
        (a: { id: string }) => a.id.toLowerCase(),
      ),
    );
    const admin = await query(
      DEMO_EMAIL,
      '{ clientIdentifications(pageSize: 200) { list { id defaultAccountId } } }',
    );
    const outside = (admin.clientIdentifications.list as { defaultAccountId: string | null }[])
      .map((c) => c.defaultAccountId)
      .find((id): id is string => id !== null && !visible.has(id.toLowerCase()));
    assert.ok(outside, 'the admin sees a code whose default account the dispatcher does not');
    const document =
      'query($acc: ID) { clientIdentifications(defaultAccountId: $acc) { count list { id } } }';
    assert.ok((await query(DEMO_EMAIL, document, { acc: outside })).clientIdentifications.count > 0);
    const filtered = await query(DISPATCHER, document, { acc: outside });
    assert.equal(filtered.clientIdentifications.count, 0);
    assert.deepEqual(filtered.clientIdentifications.list, []);
  });
});
