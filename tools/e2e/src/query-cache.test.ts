/**
 * The per-login query cache (spec 4.1 `cache`, spec 8) through the real platform: gateway ->
 * fleet-core -> PostgreSQL, on seeded demo data, with the in-memory store (no REDIS_URL).
 * "Served from the cache" is proven by changing the row in PostgreSQL: a cached answer still
 * shows the old value, a fresh one the new value.
 * Lifetimes (ttl, extendTtl) are checked on a second gateway built the way the platform builds
 * it, on the same subgraphs, whose clock the test moves: no test waits on the wall clock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { createRevocationList } from '@fleetgraph/auth';
import { injectGraphQL, postGraphQL, type GraphQLResponse } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

const OTHER_ORG = { email: 'ops@globex.example', password: DEMO_PASSWORD };
const ACCOUNT_QUERY = '{ account { email fullName } }';

let stack: Stack;
/** A gateway on the platform's SSO and subgraphs, whose clock (epoch ms) the tests move. */
let timed: FastifyInstance;
let clock = Date.now();
/** Hits the timed gateway answered before Apollo Server (engine/front-door.ts). */
let frontHits = 0;
before(async () => {
  stack = await startStack('e2e_query_cache');
  timed = await buildGateway(gatewayConfig(), { now: () => clock, onCacheFrontHit: () => void frontHits++ });
});
after(async () => {
  await timed?.close();
  await stack?.close();
});

const login = () => stack.login(DEMO_EMAIL, DEMO_PASSWORD);
type Ask = (
  token: string,
  query?: string,
  variables?: Record<string, unknown>,
) => Promise<GraphQLResponse<any>>;
/** Through the platform's gateway. */
const ask: Ask = (token, query = ACCOUNT_QUERY, variables) =>
  postGraphQL(stack.platform.urls.graphql, query, { token, ...(variables ? { variables } : {}) });
/** Through the gateway whose clock the test moves. */
const askTimed: Ask = (token, query = ACCOUNT_QUERY, variables) =>
  injectGraphQL(timed, query, { token, ...(variables ? { variables } : {}) });
/** The gateway built the way the platform builds it, with these settings on top. */
const gatewayConfig = (extra: Record<string, string> = {}) => loadGatewayConfig(stack.gatewayEnv(extra));
const cacheHeader = (response: { headers: Record<string, unknown> }) =>
  response.headers?.['x-fleetgraph-cache'];

let renames = 0;
/** Renames the demo account in fleet-core's table; returns the new name. */
async function rename(email = DEMO_EMAIL): Promise<string> {
  const name = `Renamed ${++renames}`;
  await stack.knex('fleet.accounts').where({ email }).update({ full_name: name });
  return name;
}

async function enable(token: string, args = 'ttl: 60', via: Ask = ask) {
  const response = await via(
    token,
    `{ cache(${args}) { scope ttl extendTtl softFlush flush saveSettings } }`,
  );
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  return response.data.cache;
}

describe('per-login query cache (in-memory store)', () => {
  test('caching is off until a cache query turns it on', async () => {
    const token = await login();
    const first = await ask(token);
    assert.equal(cacheHeader(first), 'bypass');
    const name = await rename();
    const second = await ask(token);
    assert.equal(second.data.account.fullName, name, 'answered by fleet-core, not a cache');
    assert.equal(cacheHeader(second), 'bypass');
  });

  test('`cache` with no arguments answers the defaults of the spec', async () => {
    const token = await login();
    const response = await ask(token, '{ cache { scope ttl extendTtl softFlush flush saveSettings } }');
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    assert.deepEqual(response.data.cache, {
      scope: 'LOGIN',
      ttl: 5,
      extendTtl: false,
      softFlush: false,
      flush: false,
      saveSettings: true,
    });
  });

  test('a cached answer is served within the ttl and fetched again after it', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 1', askTimed);
    const before = await askTimed(token);
    assert.equal(cacheHeader(before), 'miss');
    const oldName = before.data.account.fullName;
    const newName = await rename();
    clock += 999;
    const cached = await askTimed(token);
    assert.equal(cacheHeader(cached), 'hit');
    assert.equal(cached.data.account.fullName, oldName, 'the cached answer, not the new row');
    clock += 1;
    const fresh = await askTimed(token);
    assert.equal(cacheHeader(fresh), 'miss');
    assert.equal(fresh.data.account.fullName, newName);
  });

  test('the key is the normalized document and the variables', async () => {
    const token = await login();
    await enable(token);
    const query = 'query One($id: ID!) { device(id: $id) { id } }';
    const devices = await ask(token, '{ devices(pageSize: 2) { list { id } } }');
    const [a, b] = devices.data.devices.list.map((d: { id: string }) => d.id);
    assert.equal(cacheHeader(await ask(token, query, { id: a })), 'miss');
    assert.equal(cacheHeader(await ask(token, query, { id: b })), 'miss', 'other variables, other entry');
    const respaced = 'query One($id: ID!) {\n  device(id: $id) {\n    id\n  }\n}';
    const hit = await ask(token, respaced, { id: a });
    assert.equal(cacheHeader(hit), 'hit', 'the same document with other whitespace');
    assert.equal(hit.data.device.id, a);
  });

  test('extendTtl: each hit restarts the time to live', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 2, extendTtl: true', askTimed);
    const first = await askTimed(token);
    const oldName = first.data.account.fullName;
    const newName = await rename();
    clock += 1200;
    assert.equal(cacheHeader(await askTimed(token)), 'hit');
    clock += 1200; // 2.4 s after the entry was stored: alive only because the hit extended it
    const extended = await askTimed(token);
    assert.equal(cacheHeader(extended), 'hit');
    assert.equal(extended.data.account.fullName, oldName);
    clock += 2000;
    const expired = await askTimed(token);
    assert.equal(cacheHeader(expired), 'miss');
    assert.equal(expired.data.account.fullName, newName);
  });

  test('without extendTtl a hit does not keep the entry alive', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 2', askTimed);
    await askTimed(token);
    await rename();
    clock += 1200;
    assert.equal(cacheHeader(await askTimed(token)), 'hit');
    clock += 800;
    assert.equal(cacheHeader(await askTimed(token)), 'miss', '2 s after it was stored');
  });

  test('saveSettings false applies the settings to this request only', async () => {
    const token = await login();
    const withCache = `{ cache(ttl: 60, saveSettings: false) { ttl saveSettings } account { fullName } }`;
    const first = await ask(token, withCache);
    assert.deepEqual(first.data.cache, { ttl: 60, saveSettings: false });
    assert.equal(cacheHeader(first), 'miss');
    assert.equal(cacheHeader(await ask(token, withCache)), 'hit', 'cached under these settings');
    assert.equal(cacheHeader(await ask(token)), 'bypass', 'nothing was kept for the login');
  });

  test('saveSettings true keeps the settings for the rest of the login', async () => {
    const token = await login();
    await enable(token, 'ttl: 60, saveSettings: true');
    assert.equal(cacheHeader(await ask(token)), 'miss');
    assert.equal(cacheHeader(await ask(token)), 'hit');
  });

  test('softFlush ignores the entries stored before it', async () => {
    const token = await login();
    await enable(token);
    await ask(token);
    const newName = await rename();
    assert.equal(cacheHeader(await ask(token)), 'hit');
    const info = await enable(token, 'ttl: 60, softFlush: true');
    assert.equal(info.softFlush, true);
    const fresh = await ask(token);
    assert.equal(cacheHeader(fresh), 'miss');
    assert.equal(fresh.data.account.fullName, newName);
    assert.equal(cacheHeader(await ask(token)), 'hit', 'entries stored after the flush are served');
  });

  test('flush removes the entries of the scope', async () => {
    const token = await login();
    await enable(token);
    await ask(token);
    const newName = await rename();
    assert.equal(cacheHeader(await ask(token)), 'hit');
    const flush = await ask(token, '{ cache(ttl: 60, flush: true) { flush } account { fullName } }');
    assert.equal(flush.data.cache.flush, true);
    assert.equal(cacheHeader(flush), 'bypass', 'a flushing request is never answered from the cache');
    const fresh = await ask(token);
    assert.equal(cacheHeader(fresh), 'miss');
    assert.equal(fresh.data.account.fullName, newName);
  });

  test('a cache command inside an operation the limits refuse changes nothing', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 60', askTimed);
    await askTimed(token);
    assert.equal(cacheHeader(await askTimed(token)), 'hit');
    // 40 aliases: over MAX_ALIASES (30), refused before execution.
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(' ');
    const refused = await askTimed(
      token,
      `{ cache(flush: true, ttl: 1, saveSettings: true) { flush } ${aliases} }`,
    );
    assert.equal(refused.errors?.[0]?.extensions?.code, 'QUERY_TOO_COMPLEX');
    assert.equal(cacheHeader(refused), 'bypass');
    const after = await askTimed(token);
    assert.equal(cacheHeader(after), 'hit', 'the entry was not flushed');
    clock += 1500;
    assert.equal(cacheHeader(await askTimed(token)), 'hit', 'the saved ttl of 60 s still applies, not 1 s');
  });

  test("one login's cached data is never served to another login or account", async () => {
    const demo = await login();
    const otherOrg = await stack.login(OTHER_ORG.email, OTHER_ORG.password);
    await enable(demo);
    await enable(otherOrg);
    assert.equal((await ask(demo)).data.account.email, DEMO_EMAIL);
    const theirs = await ask(otherOrg);
    assert.equal(cacheHeader(theirs), 'miss', 'same document, other account: not a hit');
    assert.equal(theirs.data.account.email, OTHER_ORG.email);

    const secondLogin = await login();
    await enable(secondLogin);
    assert.equal(cacheHeader(await ask(secondLogin)), 'miss', 'scope LOGIN: another login of the same user');
  });

  test('scope ACCOUNT shares entries between logins of the same account only', async () => {
    const first = await login();
    const second = await login();
    const otherOrg = await stack.login(OTHER_ORG.email, OTHER_ORG.password);
    for (const token of [first, second, otherOrg]) await enable(token, 'scope: ACCOUNT, ttl: 60');
    const query = '{ account { email } groups(pageSize: 1) { list { id } } }';
    assert.equal(cacheHeader(await ask(first, query)), 'miss');
    assert.equal(cacheHeader(await ask(second, query)), 'hit', 'the other login of the same account');
    const theirs = await ask(otherOrg, query);
    assert.equal(cacheHeader(theirs), 'miss');
    assert.equal(theirs.data.account.email, OTHER_ORG.email);
  });

  test('scope NONE turns caching off', async () => {
    const token = await login();
    await enable(token, 'ttl: 60');
    await enable(token, 'scope: NONE');
    assert.equal(cacheHeader(await ask(token)), 'bypass');
    assert.equal(cacheHeader(await ask(token)), 'bypass');
  });

  test('responses with errors are not cached', async () => {
    const token = await login();
    await enable(token);
    const bad = '{ devices(pageSize: 100000) { list { id } } }';
    const first = await ask(token, bad);
    assert.ok(first.errors?.length);
    assert.equal(cacheHeader(await ask(token, bad)), 'miss');
  });

  test('bad cache arguments are BAD_USER_INPUT and change nothing', async () => {
    const token = await login();
    for (const [query, argument] of [
      ['{ cache(ttl: 0) { ttl } }', 'ttl'],
      ['{ cache(ttl: 3601) { ttl } }', 'ttl'],
      ['{ a: cache(ttl: 5) { ttl } b: cache(ttl: 6) { ttl } }', 'cache'],
    ] as const) {
      const response = await ask(token, query);
      assert.equal(response.status, 400, query);
      assert.equal(response.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', query);
      assert.equal(response.errors?.[0]?.extensions?.argumentName, argument, query);
      assert.equal(response.data, undefined);
    }
    assert.equal(cacheHeader(await ask(token)), 'bypass', 'no settings were saved');
  });

  test('hits and misses are counted in /metrics', async () => {
    const token = await login();
    await enable(token);
    await ask(token);
    await ask(token);
    const metrics = await (await fetch(`${stack.platform.urls.gateway}/metrics`)).text();
    const count = (result: string) =>
      Number(new RegExp(`gateway_cache_lookups_total\\{result="${result}"\\} (\\d+)`).exec(metrics)?.[1]);
    assert.ok(count('hit') >= 1, metrics);
    assert.ok(count('miss') >= 1, metrics);
  });
});

describe('repeated hits answered before Apollo Server (engine/front-door.ts)', () => {
  /** POSTs a query to the timed gateway; the raw answer (bytes and headers). */
  const post = (token: string, query = ACCOUNT_QUERY, accept = 'application/json', app = timed) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
      payload: JSON.stringify({ query }),
    });

  /** A gateway of its own (settings on top of the platform's), counting its front hits; closed after `use`. */
  async function withGateway(
    extra: Record<string, string>,
    options: Parameters<typeof buildGateway>[1],
    use: (gateway: FastifyInstance, hits: () => number) => Promise<void>,
  ) {
    let hits = 0;
    const gateway = await buildGateway(gatewayConfig(extra), {
      ...options,
      now: () => clock,
      onCacheFrontHit: () => void hits++,
    });
    try {
      await use(gateway, () => hits);
    } finally {
      await gateway.close();
    }
  }

  /** Turns caching on for the login, then asks ACCOUNT_QUERY twice: a miss, then a hit. */
  async function servedTwice(token: string, gateway: FastifyInstance) {
    clock = Date.now();
    await enable(token, 'ttl: 60', (t, q) => injectGraphQL(gateway, q!, { token: t }));
    assert.equal(
      (await post(token, ACCOUNT_QUERY, 'application/json', gateway)).headers['x-fleetgraph-cache'],
      'miss',
    );
    const hit = await post(token, ACCOUNT_QUERY, 'application/json', gateway);
    assert.equal(hit.headers['x-fleetgraph-cache'], 'hit');
    assert.equal(hit.json().data.account.email, DEMO_EMAIL);
  }

  test('a repeated hit is answered before Apollo Server with the bytes and headers of a full-path hit', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 60', askTimed);
    const miss = await post(token);
    assert.equal(miss.headers['x-fleetgraph-cache'], 'miss');
    const before = frontHits;
    const front = await post(token);
    assert.equal(frontHits, before + 1, 'answered before Apollo Server');
    // Another text of the same document: unknown to the front, a hit of the full path.
    const full = await post(token, `\n${ACCOUNT_QUERY} `);
    assert.equal(frontHits, before + 1, 'the full path answered this one');
    for (const response of [front, full]) {
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['x-fleetgraph-cache'], 'hit');
      assert.equal(response.json().data.account.email, DEMO_EMAIL);
    }
    assert.equal(front.body, full.body, 'the same bytes');
    // A miss is charged and reports its cost; a hit does no work, costs nothing and reports none.
    const { extensions: missExtensions, ...missAnswer } = miss.json();
    assert.ok(missExtensions?.cost, 'the miss reports its cost');
    assert.equal(front.json().extensions, undefined, 'a hit reports no cost');
    assert.equal(front.body, `${JSON.stringify(missAnswer)}\n`, 'the answer the miss gave');
    const comparable = ({ headers }: { headers: Record<string, unknown> }) => {
      const { 'x-request-id': _id, date: _date, ...rest } = headers;
      return rest;
    };
    assert.deepEqual(comparable(front), comparable(full), 'the same headers');
  });

  test('the front answers each Accept header with the content type the full path chose for it', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 60', askTimed);
    const accept = 'application/graphql-response+json';
    const first = await post(token, ACCOUNT_QUERY, accept);
    const before = frontHits;
    const second = await post(token, ACCOUNT_QUERY, accept);
    assert.equal(second.headers['x-fleetgraph-cache'], 'hit');
    assert.equal(frontHits, before + 1);
    assert.match(String(first.headers['content-type']), /^application\/graphql-response\+json/);
    assert.equal(second.headers['content-type'], first.headers['content-type']);
  });

  test('the front verifies the token on every request: an expired login gets UNAUTHENTICATED, not its entry', async () => {
    const token = await login();
    clock = Date.now();
    await enable(token, 'ttl: 3600', askTimed);
    await post(token);
    const before = frontHits;
    const hit = await post(token);
    assert.equal(hit.headers['x-fleetgraph-cache'], 'hit');
    assert.equal(frontHits, before + 1);
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    clock = (exp + 31) * 1000; // past the verifier's 30 s of allowed clock skew
    const expired = await post(token);
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json().errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(expired.json().data, undefined);
    assert.equal(frontHits, before + 1, 'not answered by the front');
    clock = Date.now();
  });

  test('the front honours revocations: a revoked login gets UNAUTHENTICATED, not its entry', async () => {
    const revocations = createRevocationList({ now: () => clock });
    try {
      await withGateway({}, { revocations }, async (gateway, hits) => {
        const token = await login();
        await servedTwice(token, gateway);
        assert.equal(hits(), 1);
        const { jti, exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
          jti: string;
          exp: number;
        };
        await revocations.revoke(jti, exp);
        const refused = await post(token, ACCOUNT_QUERY, 'application/json', gateway);
        assert.equal(refused.statusCode, 401);
        assert.equal(refused.json().errors[0].extensions.code, 'UNAUTHENTICATED');
        assert.equal(refused.json().data, undefined);
        assert.equal(hits(), 1, 'not answered by the front');
      });
    } finally {
      await revocations.close();
    }
  });

  test("another login sending the same text is not answered from the first login's entry", async () => {
    const first = await login();
    const second = await login();
    clock = Date.now();
    for (const token of [first, second]) await enable(token, 'ttl: 60', askTimed);
    await post(first);
    await post(first);
    const before = frontHits;
    const theirs = await post(second);
    assert.equal(theirs.statusCode, 200);
    assert.equal(theirs.json().data.account.email, DEMO_EMAIL);
    assert.equal(theirs.headers['x-fleetgraph-cache'], 'miss', 'scope LOGIN: its own entry, none yet');
    assert.equal(frontHits, before);
  });

  test('the front takes the rate limit: a login over its limit is refused even on a hit', async () => {
    await withGateway({ RATE_LIMIT_PER_MINUTE: '3' }, {}, async (gateway, hits) => {
      const token = await login();
      await servedTwice(token, gateway); // the 3 requests allowed: enable, miss, hit
      assert.equal(hits(), 1);
      const refused = await post(token, ACCOUNT_QUERY, 'application/json', gateway);
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().errors[0].extensions.code, 'RATE_LIMITED');
      assert.equal(refused.json().data, undefined);
      assert.equal(hits(), 1, 'the refused request was not answered from the cache');
    });
  });
});
