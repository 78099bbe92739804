/**
 * Token verification is cached per token until the token expires (libs/auth's verifier, as the
 * gateway uses it): the signature is checked once per token, not once per request, and an
 * expired token is refused even though it was cached. Time is the test's clock, not the wall clock.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JWTVerifyGetKey } from 'jose';
import { createTestIssuer, injectGraphQL, type TestIssuer } from '@fleetgraph/testing';
import { composeSupergraph, deadUrl, FEDERATION, startTestGateway } from './testing/subgraphs';

let issuer: TestIssuer;
let keyLookups = 0;
let close: () => Promise<void>;
/** The gateway's clock (epoch ms): the tests move it instead of waiting. */
let clock = Date.now();
let app: Awaited<ReturnType<typeof startTestGateway>>['app'];

before(async () => {
  issuer = await createTestIssuer();
  // Every signature check asks for the key: counting lookups counts verifications.
  const counting: JWTVerifyGetKey = (header, token) => {
    keyLookups += 1;
    return issuer.jwks(header, token);
  };
  const supergraph = composeSupergraph([
    { name: 'a', url: await deadUrl(), typeDefs: `${FEDERATION} type Query { a: String }` },
  ]);
  const gateway = await startTestGateway(supergraph, issuer, {}, { jwks: counting, now: () => clock });
  app = gateway.app;
  close = gateway.close;
});
after(() => close());

test('the signature of a token is checked once, however many requests carry it', async () => {
  keyLookups = 0;
  const token = await issuer.token({ uid: 'u-1', email: 'a@example.test' });
  for (let i = 0; i < 5; i++)
    assert.deepEqual((await injectGraphQL(app, '{ __typename }', { token })).data, { __typename: 'Query' });
  assert.equal(keyLookups, 1);
  const other = await issuer.token({ uid: 'u-2', email: 'b@example.test' });
  await injectGraphQL(app, '{ __typename }', { token: other });
  assert.equal(keyLookups, 2);
});

test('a cached token is refused once it expires', async () => {
  clock = Date.now();
  // Expired 29 s ago: still inside the verifier's 30 s clock tolerance, for one more second.
  const token = await issuer.token({ uid: 'u-3', email: 'c@example.test' }, { expiresIn: -29 });
  assert.equal((await injectGraphQL(app, '{ __typename }', { token })).status, 200);
  clock += 1200;
  const late = await injectGraphQL(app, '{ __typename }', { token });
  assert.equal(late.status, 401);
  assert.equal(late.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  assert.match(late.errors?.[0]?.message ?? '', /expired/);
});
