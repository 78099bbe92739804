/** INTROSPECTION on (default) and off, over HTTP through the real gateway. */
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
