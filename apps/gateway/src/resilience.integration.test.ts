/**
 * Resilience of the gateway over real subgraphs (service-kit + subgraph-kit, verifying tokens):
 * a subgraph that is down or too slow costs only its own fields; readiness names the subgraphs
 * that are not ready; the supergraph file hot-reloads without dropping requests; the SSO being
 * down does not stop token verification.
 */
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestIssuer, injectGraphQL, type TestIssuer } from '@fleetgraph/testing';
import {
  composeSupergraph,
  deadUrl,
  FEDERATION,
  logCollector,
  silentServer,
  startTestGateway,
  startTestSubgraph,
  type TestSubgraph,
} from './testing/subgraphs';

const ALPHA_V1 = `${FEDERATION}
type Query { alpha: Alpha things: [Thing!]! held: String }
type Alpha { id: ID! name: String! }
type Thing @key(fields: "id") { id: ID! label: String! }`;
// What the alpha service serves: one field more than the first supergraph knows.
const ALPHA_V2 = ALPHA_V1.replace('name: String! }', 'name: String! extra: String }');
const BETA = `${FEDERATION}
type Query { beta: String }
type Thing @key(fields: "id") { id: ID! score: Int }`;

let issuer: TestIssuer;
let token: string;
let alpha: TestSubgraph;
let beta: TestSubgraph;
let supergraphV1: string;
let supergraphV2: string;
let held: Promise<void>;
let release: () => void = () => undefined;
let heldEntered: () => void = () => undefined;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  issuer = await createTestIssuer();
  token = await issuer.token({ uid: 'u-1', email: 'ops@example.test' });
  alpha = await startTestSubgraph(
    'alpha',
    ALPHA_V2,
    {
      Query: {
        alpha: () => ({ id: 'a1', name: 'Alpha', extra: 'hot' }),
        // Answers once the test releases it.
        held: () => {
          heldEntered();
          return held.then(() => 'released');
        },
        things: () => [
          { id: '1', label: 'one' },
          { id: '2', label: 'two' },
        ],
      },
    },
    { issuer },
  );
  beta = await startTestSubgraph(
    'beta',
    BETA,
    {
      Query: { beta: () => 'from beta' },
      Thing: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, score: Number(ref.id) * 10 }) },
    },
    { issuer },
  );
  closers.push(alpha.close, beta.close);
  supergraphV1 = composeSupergraph([
    { name: 'alpha', url: alpha.url, typeDefs: ALPHA_V1 },
    { name: 'beta', url: beta.url, typeDefs: BETA },
  ]);
  supergraphV2 = composeSupergraph([
    { name: 'alpha', url: alpha.url, typeDefs: ALPHA_V2 },
    { name: 'beta', url: beta.url, typeDefs: BETA },
  ]);
});

after(async () => {
  for (const close of closers.reverse()) await close();
});

async function gateway(env: Record<string, string> = {}, options = {}) {
  const started = await startTestGateway(supergraphV1, issuer, env, options);
  closers.push(started.close);
  return started;
}

describe('a subgraph that is down', () => {
  test('its root fields are null with SUBGRAPH_UNAVAILABLE errors; the other subgraph is served', async () => {
    const { app } = await gateway({ SUBGRAPH_BETA_URL: await deadUrl() });
    const response = await injectGraphQL(app, '{ alpha { id name } beta }', { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.data, { alpha: { id: 'a1', name: 'Alpha' }, beta: null });
    assert.deepEqual(response.errors, [
      {
        message: 'The beta service is unavailable',
        path: ['beta'],
        extensions: { code: 'SUBGRAPH_UNAVAILABLE', serviceName: 'beta' },
      },
    ]);
  });

  test('a subgraph killed while the gateway holds keep-alive connections to it: partial data, then full again once it is back', async () => {
    const resolvers = { Query: { beta: () => 'from beta' } };
    let live = await startTestSubgraph('beta', BETA, resolvers, { issuer });
    const port = Number(new URL(live.url).port);
    const { app } = await gateway({ SUBGRAPH_BETA_URL: live.url });
    const ask = () => injectGraphQL(app, '{ alpha { id } beta }', { token });
    assert.deepEqual((await ask()).data, { alpha: { id: 'a1' }, beta: 'from beta' });
    assert.deepEqual(
      (await ask()).data,
      { alpha: { id: 'a1' }, beta: 'from beta' },
      'over the kept-alive socket',
    );

    // Killed: every open socket reset, nothing listening any more.
    live.app.server.closeAllConnections();
    await live.app.close();
    for (let i = 0; i < 2; i++) {
      const partial = await ask();
      assert.equal(partial.status, 200);
      assert.deepEqual(partial.data, { alpha: { id: 'a1' }, beta: null });
      assert.deepEqual(
        partial.errors?.map((e) => [e.path, e.extensions?.code]),
        [[['beta'], 'SUBGRAPH_UNAVAILABLE']],
      );
    }

    // Back on the same address: the gateway reconnects by itself.
    live = await startTestSubgraph('beta', BETA, resolvers, { issuer, port });
    closers.push(live.close);
    assert.deepEqual((await ask()).data, { alpha: { id: 'a1' }, beta: 'from beta' });
  });

  test('subgraph calls share at most SUBGRAPH_CONNECTIONS kept-alive sockets per subgraph', async () => {
    const live = await startTestSubgraph('beta', BETA, { Query: { beta: () => 'from beta' } }, { issuer });
    closers.push(live.close);
    let sockets = 0;
    live.app.server.on('connection', () => (sockets += 1));
    const { app } = await gateway({ SUBGRAPH_BETA_URL: live.url, SUBGRAPH_CONNECTIONS: '2' });
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => injectGraphQL(app, '{ beta }', { token })),
    );
    for (const answer of burst) assert.deepEqual(answer.data, { beta: 'from beta' });
    assert.ok(sockets >= 1 && sockets <= 2, `20 concurrent calls used ${sockets} sockets`);
    const before = sockets;
    for (let i = 0; i < 10; i++) await injectGraphQL(app, '{ beta }', { token });
    assert.equal(sockets, before, 'later calls reuse the open sockets');
  });

  test('entity fields it would add are null with one error per entity', async () => {
    const { app } = await gateway({ SUBGRAPH_BETA_URL: await deadUrl() });
    const response = await injectGraphQL(app, '{ things { id label score } }', { token });
    assert.deepEqual(response.data, {
      things: [
        { id: '1', label: 'one', score: null },
        { id: '2', label: 'two', score: null },
      ],
    });
    assert.deepEqual(
      response.errors?.map((e) => [e.path, e.extensions?.code, e.extensions?.serviceName]),
      [
        [['things', 0], 'SUBGRAPH_UNAVAILABLE', 'beta'],
        [['things', 1], 'SUBGRAPH_UNAVAILABLE', 'beta'],
      ],
    );
  });

  test('the errors reveal no internal address and no stack trace', async () => {
    const dead = await deadUrl();
    const { app } = await gateway({ SUBGRAPH_BETA_URL: dead });
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: { query: '{ beta things { score } }' },
    });
    assert.doesNotMatch(response.body, /127\.0\.0\.1|localhost|ECONNREFUSED|stack|fetch failed/i);
    assert.match(response.body, /SUBGRAPH_UNAVAILABLE/);
  });

  test('a proxy error page instead of GraphQL is SUBGRAPH_UNAVAILABLE with the status, the page is not shown', async () => {
    const proxy = createServer((_request, response) =>
      response
        .writeHead(502, { 'content-type': 'text/html' })
        .end('<h1>Bad Gateway</h1> upstream 10.0.0.7:4005'),
    );
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const { app } = await gateway({
      SUBGRAPH_BETA_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/graphql`,
    });
    const response = await injectGraphQL(app, '{ alpha { id } beta }', { token });
    assert.deepEqual(response.data, { alpha: { id: 'a1' }, beta: null });
    assert.deepEqual(response.errors, [
      {
        message: 'The beta service is unavailable (HTTP 502)',
        path: ['beta'],
        extensions: { code: 'SUBGRAPH_UNAVAILABLE', serviceName: 'beta' },
      },
    ]);
  });

  test('with both subgraphs up the same query is complete', async () => {
    const { app } = await gateway();
    const response = await injectGraphQL(app, '{ alpha { id } beta things { id score } }', { token });
    assert.equal(response.errors, undefined);
    assert.deepEqual(response.data, {
      alpha: { id: 'a1' },
      beta: 'from beta',
      things: [
        { id: '1', score: 10 },
        { id: '2', score: 20 },
      ],
    });
  });
});

describe('a subgraph that does not answer in time', () => {
  test('SUBGRAPH_<NAME>_TIMEOUT_MS aborts its call: SUBGRAPH_TIMEOUT for its fields, the rest served', async () => {
    const silent = await silentServer();
    closers.push(silent.close);
    const { app } = await gateway({
      SUBGRAPH_BETA_URL: silent.url,
      SUBGRAPH_BETA_TIMEOUT_MS: '200',
      SUBGRAPH_TIMEOUT_MS: '30000',
    });
    const response = await injectGraphQL(app, '{ alpha { name } beta }', {
      token,
      headers: { 'x-request-id': 'slow-1' },
    });
    assert.equal(silent.requests(), 1);
    // What the subgraph was sent: the token and request id; no trace context (tracing is off here).
    assert.equal(silent.headers[0]?.authorization, `Bearer ${token}`);
    assert.equal(silent.headers[0]?.['x-request-id'], 'slow-1');
    assert.equal(silent.headers[0]?.traceparent, undefined);
    assert.deepEqual(response.data, { alpha: { name: 'Alpha' }, beta: null });
    assert.deepEqual(response.errors, [
      {
        message: 'The beta service did not answer within 200 ms',
        path: ['beta'],
        extensions: { code: 'SUBGRAPH_TIMEOUT', serviceName: 'beta' },
      },
    ]);
  });

  test('a bad per-subgraph timeout is a configuration error', async () => {
    await assert.rejects(
      () => gateway({ SUBGRAPH_BETA_TIMEOUT_MS: 'soon' }),
      /SUBGRAPH_BETA_TIMEOUT_MS: must be a whole number/,
    );
  });
});

describe('readiness', () => {
  test('one subgraph down: /readyz stays 200, degraded, naming it (its fields fail, the rest is served)', async () => {
    const { app } = await gateway({ SUBGRAPH_BETA_URL: await deadUrl() });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200, ready.body);
    const body = ready.json() as { status: string; checks: Record<string, string> };
    assert.equal(body.status, 'degraded');
    assert.equal(body.checks.subgraphs, 'degraded: beta (unreachable)');
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  });

  test('READINESS_REQUIRES=all: one subgraph down is 503, naming it', async () => {
    const { app } = await gateway({ SUBGRAPH_BETA_URL: await deadUrl(), READINESS_REQUIRES: 'all' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    const body = ready.json() as { status: string; checks: Record<string, string> };
    assert.equal(body.status, 'not ready');
    assert.equal(body.checks.subgraphs, 'not ready: beta (unreachable)');
  });

  test('every subgraph down is 503, naming each', async () => {
    const { app } = await gateway({
      SUBGRAPH_ALPHA_URL: await deadUrl(),
      SUBGRAPH_BETA_URL: await deadUrl(),
    });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(
      (ready.json() as { checks: Record<string, string> }).checks.subgraphs,
      'not ready: alpha (unreachable), beta (unreachable)',
    );
  });

  test('a subgraph whose /readyz does not answer in time is reported', async () => {
    const silent = await silentServer();
    closers.push(silent.close);
    const { app } = await gateway({ SUBGRAPH_ALPHA_URL: silent.url, READINESS_PROBE_TIMEOUT_MS: '150' });
    const body = (await app.inject({ method: 'GET', url: '/readyz' })).json() as {
      checks: Record<string, string>;
    };
    assert.equal(body.checks.subgraphs, 'degraded: alpha (no answer within 150 ms)');
  });

  test('/readyz is 200 when every subgraph is ready', async () => {
    const { app } = await gateway();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200, ready.body);
    assert.deepEqual(ready.json(), { status: 'ready', service: 'gateway', checks: { subgraphs: 'ok' } });
  });
});

describe('supergraph hot reload', () => {
  test('a new supergraph file is served without restart, no request fails during the swap, a broken file keeps the schema', async () => {
    const logs = logCollector();
    const { app, supergraphPath } = await gateway({ LOG_LEVEL: 'info' }, { logStream: logs.stream });
    const extra = () => injectGraphQL(app, '{ alpha { extra } }', { token });
    const before = await extra();
    assert.equal(before.status, 400);
    assert.equal(before.errors?.[0]?.extensions?.code, 'GRAPHQL_VALIDATION_FAILED');

    // Traffic during the swap: every answer must be complete.
    let stop = false;
    const answers: Array<{ status: number; errors?: unknown; data?: unknown }> = [];
    const worker = async () => {
      while (!stop)
        answers.push(await injectGraphQL(app, '{ alpha { id name } beta things { score } }', { token }));
    };
    const workers = [worker(), worker(), worker()];
    await sleep(50);
    // Replaced the way deployments do it: written aside, then renamed over the old file.
    writeFileSync(`${supergraphPath}.next`, supergraphV2);
    renameSync(`${supergraphPath}.next`, supergraphPath);
    let after = await extra();
    for (let i = 0; i < 100 && after.status !== 200; i++) {
      await sleep(50);
      after = await extra();
    }
    // Keep the traffic going a little after the swap (on a busy machine, at least 30 answers).
    const swappedAt = answers.length;
    while (answers.length < Math.max(30, swappedAt + 10)) await sleep(10);
    stop = true;
    await Promise.all(workers);
    assert.deepEqual(after.data, { alpha: { extra: 'hot' } });
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.errors, undefined);
      assert.deepEqual(answer.data, {
        alpha: { id: 'a1', name: 'Alpha' },
        beta: 'from beta',
        things: [{ score: 10 }, { score: 20 }],
      });
    }
    assert.ok(logs.lines.some((l) => l.msg === 'supergraph reloaded'));

    // A broken file (edited in place): logged, and the running schema stays.
    writeFileSync(supergraphPath, 'schema { query: Query } type Query { broken: Strin');
    for (
      let i = 0;
      i < 100 && !logs.lines.some((l) => l.msg === 'supergraph file rejected: keeping the current schema');
      i++
    )
      await sleep(50);
    const rejected = logs.lines.find((l) => l.msg === 'supergraph file rejected: keeping the current schema');
    assert.ok(rejected, 'the broken file is logged');
    assert.equal(rejected.level, 50);
    assert.deepEqual((await extra()).data, { alpha: { extra: 'hot' } });
    assert.deepEqual((await injectGraphQL(app, '{ beta }', { token })).data, { beta: 'from beta' });
  });
});

describe('supergraph hot reload with a request in flight', () => {
  test('a request started before the swap completes after it', async () => {
    const { app, supergraphPath } = await gateway();
    held = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (heldEntered = resolve));
    const inFlight = injectGraphQL(app, '{ held alpha { id } }', { token });
    await entered; // the gateway is waiting on alpha
    writeFileSync(`${supergraphPath}.next`, supergraphV2);
    renameSync(`${supergraphPath}.next`, supergraphPath);
    let swapped = await injectGraphQL(app, '{ alpha { extra } }', { token });
    for (let i = 0; i < 100 && swapped.status !== 200; i++) {
      await sleep(50);
      swapped = await injectGraphQL(app, '{ alpha { extra } }', { token });
    }
    assert.deepEqual(swapped.data, { alpha: { extra: 'hot' } }, 'the new schema is served');
    release();
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    assert.equal(answer.errors, undefined);
    assert.deepEqual(answer.data, { held: 'released', alpha: { id: 'a1' } });
  });
});

describe('the SSO being down', () => {
  test('tokens signed with a cached key still verify, also once the cached keys are stale', async () => {
    let jwksCalls = 0;
    const jwks: Server = createServer((_request, response) => {
      jwksCalls += 1;
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: [issuer.publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
    let clock = Date.now();
    const { app } = await gateway(
      { SSO_JWKS_URL: jwksUrl, JWKS_MAX_AGE_MS: '1000' },
      { jwks: undefined, now: () => clock },
    );

    const first = await injectGraphQL(app, '{ __typename }', {
      token: await issuer.token({ uid: 'u-2', email: 'a@example.test' }),
    });
    assert.deepEqual(first.data, { __typename: 'Query' });
    assert.equal(jwksCalls, 1);

    jwks.closeAllConnections();
    await new Promise<void>((resolve) => jwks.close(() => resolve()));
    const fresh = await injectGraphQL(app, '{ __typename }', {
      token: await issuer.token({ uid: 'u-3', email: 'b@example.test' }),
    });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.errors));
    assert.deepEqual(fresh.data, { __typename: 'Query' });

    clock += 1100; // the cached keys are now older than JWKS_MAX_AGE_MS: a refresh fails
    const stale = await injectGraphQL(app, '{ __typename }', {
      token: await issuer.token({ uid: 'u-4', email: 'c@example.test' }),
    });
    assert.deepEqual(stale.data, { __typename: 'Query' });

    // Still no blind acceptance: a token signed by another key is refused.
    const stranger = await createTestIssuer(issuer.issuer, issuer.audience);
    const forged = await injectGraphQL(app, '{ __typename }', {
      token: await stranger.token({ uid: 'u-5', email: 'd@example.test' }),
    });
    assert.equal(forged.status, 401);
    assert.equal(forged.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  });

  test('a gateway started while the SSO is down is not ready and refuses tokens; it recovers once the SSO answers', async () => {
    const port = Number(new URL(await deadUrl()).port);
    const jwksUrl = `http://127.0.0.1:${port}/.well-known/jwks.json`;
    const { app } = await gateway({ SSO_JWKS_URL: jwksUrl }, { jwks: undefined });
    const signed = await issuer.token({ uid: 'u-6', email: 'e@example.test' });

    const notReady = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(notReady.statusCode, 503);
    assert.match(
      (notReady.json() as { checks: Record<string, string> }).checks['sso-keys'] ?? '',
      /^the SSO's signing keys could not be fetched yet/,
    );
    const refused = await injectGraphQL(app, '{ __typename }', { token: signed });
    assert.equal(refused.status, 401);
    assert.equal(refused.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');

    const sso: Server = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: [issuer.publicJwk] }));
    });
    await new Promise<void>((resolve) => sso.listen(port, '127.0.0.1', resolve));
    closers.push(async () => {
      sso.closeAllConnections();
      await new Promise<void>((resolve) => sso.close(() => resolve()));
    });
    assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    assert.deepEqual((await injectGraphQL(app, '{ __typename }', { token: signed })).data, {
      __typename: 'Query',
    });
  });
});
