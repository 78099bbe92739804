/**
 * INTROSPECTION on (default) and off, over HTTP through the real gateway; introspection answered
 * once per question however many ask it at once, and walks charged to the asker's budget.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { injectGraphQL } from '@fleetgraph/testing';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';

let stubs: StubbedGateways;
let token: string;
before(async () => {
  stubs = await stubbedGateways();
  token = await stubs.issuer.token({ uid: 'u-intro', email: 'intro@example.test' });
});
after(async () => {
  await stubs.close();
});

const TYPE_QUERY = '{ __type(name: "Account") { name fields { name } } }';

describe('introspection on (default)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await stubs.gateway();
  });

  test('the standard IntrospectionQuery and __type are answered', async () => {
    const schema = await injectGraphQL(app, getIntrospectionQuery(), { token });
    assert.equal(schema.status, 200, JSON.stringify(schema.errors));
    assert.equal(schema.data?.__schema.queryType.name, 'Query');
    const type = await injectGraphQL(app, TYPE_QUERY, { token });
    assert.equal(type.data?.__type.name, 'Account');
  });
});

describe('introspection answered once per question', () => {
  let app: FastifyInstance;
  let walks = 0;
  before(async () => {
    app = await stubs.gateway(
      { MAX_COST: '100000', COST_BUDGET_PER_MINUTE: '100000', INTROSPECTION_ROOT_COST: '40000' },
      { onIntrospectionWalk: () => (walks += 1) },
    );
  });

  test('50 identical walks at once are one walk, free after the first; another question is walked and charged', async () => {
    const walker = await stubs.issuer.token({ uid: 'u-walker', email: 'walker@example.test' });
    stubs.resetCalls();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => injectGraphQL(app, getIntrospectionQuery(), { token: walker })),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer.errors));
      assert.deepEqual(answer.data, answers[0]!.data);
    }
    assert.equal(walks, 1, 'the schema was walked once');
    assert.equal(stubs.calls(), 0, 'introspection never reaches a subgraph');
    const charged = answers.filter((answer) => answer.extensions?.cost !== undefined);
    assert.equal(charged.length, 1, 'only the walk is charged');
    assert.equal((charged[0]!.extensions!.cost as { requestedQueryCost: number }).requestedQueryCost, 40_000);
    // Another question is another walk: 40,000 more of the 60,000 left, then the budget refuses.
    assert.equal((await injectGraphQL(app, TYPE_QUERY, { token: walker })).status, 200);
    assert.equal(walks, 2);
    const refused = await injectGraphQL(app, '{ __type(name: "Device") { name } }', { token: walker });
    assert.equal(refused.status, 429);
    assert.equal(refused.errors?.[0]?.extensions?.code, 'RATE_LIMITED');
    const known = await injectGraphQL(app, getIntrospectionQuery(), { token: walker });
    assert.equal(known.status, 200, 'a known answer costs nothing, even with the budget spent');
  });
});

describe('introspection off (INTROSPECTION=false)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await stubs.gateway({ INTROSPECTION: 'false' });
  });

  function assertDisabled(response: Awaited<ReturnType<typeof injectGraphQL>>) {
    assert.equal(response.status, 400);
    assert.equal(response.data, undefined);
    assert.equal(response.errors?.length, 1);
    assert.deepEqual(response.errors?.[0]?.extensions, { code: 'INTROSPECTION_DISABLED' });
    assert.match(response.errors?.[0]?.message ?? '', /Introspection is disabled/);
  }

  test('__schema is refused with INTROSPECTION_DISABLED, before any subgraph call', async () => {
    stubs.resetCalls();
    assertDisabled(await injectGraphQL(app, getIntrospectionQuery(), { token }));
    assertDisabled(await injectGraphQL(app, TYPE_QUERY, { token }));
    assert.equal(stubs.calls(), 0);
  });

  test('introspection hidden in a fragment or next to data is refused too', async () => {
    stubs.resetCalls();
    assertDisabled(
      await injectGraphQL(
        app,
        '{ account { email } ...T } fragment T on Query { __schema { types { name } } }',
        {
          token,
        },
      ),
    );
    assert.equal(stubs.calls(), 0);
  });

  test('__typename and ordinary queries still work', async () => {
    const response = await injectGraphQL(app, '{ __typename account { __typename email } }', { token });
    assert.equal(response.status, 200, JSON.stringify(response.errors));
    assert.deepEqual(response.data, {
      __typename: 'Query',
      account: { __typename: 'Account', email: 'intro@example.test' },
    });
  });
});
