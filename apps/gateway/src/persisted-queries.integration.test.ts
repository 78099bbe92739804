/**
 * Automatic persisted queries over HTTP through the real gateway, in memory and in Redis: the
 * Apollo APQ protocol (miss -> register -> hit by hash), GET by hash, a wrong hash, and only
 * queries that pass the limits are registered.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { NO_BUDGETS } from '@fleetgraph/testing';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';
import { memoryStore, redisStore, type RedisPersistedQueryStore } from './persisted-queries/apq';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let stubs: StubbedGateways;
let token: string;
const EMAIL = 'apq@example.test';

before(async () => {
  stubs = await stubbedGateways();
  token = await stubs.issuer.token({ uid: 'u-apq', email: EMAIL });
});
after(async () => {
  await stubs.close();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A query text of its own (a comment changes the hash, not the operation). */
const uniqueQuery = () => `# ${randomUUID()}\n{ account { email } }`;

async function post(app: FastifyInstance, body: Record<string, unknown>) {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      authorization: `Bearer ${token}`,
    },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as any };
}

async function get(app: FastifyInstance, params: Record<string, unknown>) {
  const search = new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  const response = await app.inject({
    method: 'GET',
    url: `/graphql?${search}`,
    // Apollo Server's CSRF prevention wants a non-simple header on GET.
    headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' },
  });
  return { status: response.statusCode, body: response.json() as any };
}

const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

for (const store of ['memory', 'Redis'] as const) {
  describe(`automatic persisted queries (${store})`, () => {
    let app: FastifyInstance;
    const hashes: string[] = [];
    // The Redis suite gives the gateway a store it first waits on: until its connection is up the
    // store answers misses by design, which would fail the protocol assertions below. What the
    // store reports (a Redis error) goes into their messages.
    const storeErrors: string[] = [];
    let redisApq: RedisPersistedQueryStore | undefined;
    before(async () => {
      if (store === 'memory') {
        app = await stubs.gateway({});
        return;
      }
      redisApq = redisStore({
        redisUrl: REDIS_URL,
        ttlSeconds: 86_400,
        onError: (error, operation) => storeErrors.push(`${operation}: ${(error as Error).message}`),
      });
      await redisApq.ready();
      app = await stubs.gateway(
        {
          REDIS_URL,
          ...NO_BUDGETS,
        },
        { persistedQueryStore: redisApq },
      );
    });
    after(async () => {
      if (!redisApq) return;
      await redisApq.close();
      const redis = new Redis(REDIS_URL);
      await redis.del(...hashes.map((hash) => `fleetgraph:apq:apq:${hash}`));
      await redis.quit();
    });

    test('unknown hash -> PERSISTED_QUERY_NOT_FOUND; query + hash registers; the hash alone then runs it', async () => {
      const query = uniqueQuery();
      const hash = sha256(query);
      hashes.push(hash);
      stubs.resetCalls();

      const miss = await post(app, { extensions: persisted(hash) });
      assert.equal(miss.status, 200);
      assert.equal(miss.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
      assert.equal(miss.body.errors[0].message, 'PersistedQueryNotFound');
      assert.equal(stubs.calls(), 0);

      const register = await post(app, { query, extensions: persisted(hash) });
      assert.equal(register.status, 200, JSON.stringify(register.body));
      assert.deepEqual(register.body.data, { account: { email: EMAIL } });

      const hit = await post(app, { extensions: persisted(hash) });
      assert.equal(hit.status, 200, JSON.stringify(hit.body));
      assert.deepEqual(hit.body.data, { account: { email: EMAIL } }, JSON.stringify(storeErrors));
      assert.equal(stubs.calls(), 2, 'registered and hit requests both ran against the subgraph');

      if (store === 'Redis') {
        const redis = new Redis(REDIS_URL);
        try {
          assert.equal(await redis.get(`fleetgraph:apq:apq:${hash}`), query);
          const ttl = await redis.ttl(`fleetgraph:apq:apq:${hash}`);
          assert.ok(ttl > 0 && ttl <= 86_400, `the entry expires (ttl ${ttl})`);
        } finally {
          await redis.quit();
        }
      }
    });

    test('GET with only the hash (and variables) runs a registered query', async () => {
      const short = uniqueQuery();
      const hash = sha256(short);
      hashes.push(hash);
      const missByGet = await get(app, { extensions: persisted(hash) });
      assert.equal(missByGet.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
      await post(app, { query: short, extensions: persisted(hash) });
      const hit = await get(app, { extensions: persisted(hash), variables: {} });
      assert.equal(hit.status, 200, JSON.stringify(hit.body));
      assert.deepEqual(hit.body.data, { account: { email: EMAIL } }, JSON.stringify(storeErrors));
    });

    test('a hash that is not the SHA-256 of the query is PERSISTED_QUERY_HASH_MISMATCH (400) and registers nothing', async () => {
      const query = uniqueQuery();
      const wrong = sha256(`${query} `);
      hashes.push(wrong);
      stubs.resetCalls();
      const response = await post(app, { query, extensions: persisted(wrong) });
      assert.equal(response.status, 400);
      assert.equal(response.body.data, undefined);
      assert.equal(response.body.errors.length, 1);
      assert.equal(response.body.errors[0].extensions.code, 'PERSISTED_QUERY_HASH_MISMATCH');
      assert.match(response.body.errors[0].message, /not the SHA-256 of the query/);
      assert.equal(stubs.calls(), 0);
      const lookup = await post(app, { extensions: persisted(wrong) });
      assert.equal(lookup.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
    });

    test('a query refused by the limits is not registered', async () => {
      let inner = 'id';
      for (let i = 0; i < 14; i++) inner = `children(pageSize: 1) { list { ${inner} } }`;
      const query = `# ${randomUUID()}\n{ groups(pageSize: 1) { list { ${inner} } } }`;
      const hash = sha256(query);
      hashes.push(hash);
      const refused = await post(app, { query, extensions: persisted(hash) });
      assert.equal(refused.body.errors[0].extensions.code, 'QUERY_TOO_COMPLEX');
      const lookup = await post(app, { extensions: persisted(hash) });
      assert.equal(lookup.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
    });
  });
}

describe('persisted query stores', () => {
  test('PERSISTED_QUERIES=false: a hash is PERSISTED_QUERY_NOT_SUPPORTED', async () => {
    const app = await stubs.gateway({ PERSISTED_QUERIES: 'false' });
    const response = await post(app, { extensions: persisted(sha256('{ account { email } }')) });
    assert.equal(response.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_SUPPORTED');
  });

  test('the in-memory store is bounded by bytes: old entries are evicted', async () => {
    const store = memoryStore(10_000, 60);
    for (let i = 0; i < 100; i++) await store.set(`k${i}`, 'x'.repeat(500));
    assert.equal(await store.get('k0'), undefined, 'the oldest entry was evicted');
    assert.equal(await store.get('k99'), 'x'.repeat(500));
  });

  test('Redis unreachable: lookups miss and writes are skipped, without errors (reported once)', async () => {
    const errors: string[] = [];
    const store = redisStore({
      redisUrl: 'redis://127.0.0.1:1',
      ttlSeconds: 60,
      onError: (_error, operation) => errors.push(operation),
    });
    try {
      await store.set('k', 'v');
      assert.equal(await store.get('k'), undefined);
      assert.equal(await store.get('k'), undefined);
      assert.equal(errors.length, 1);
    } finally {
      await store.close();
    }
  });

  test('with Redis unreachable the gateway still answers full queries (APQ degrades to misses)', async () => {
    const app = await stubs.gateway({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '0' });
    const query = uniqueQuery();
    const response = await post(app, { query, extensions: persisted(sha256(query)) });
    assert.deepEqual(response.body.data, { account: { email: EMAIL } });
    const lookup = await post(app, { extensions: persisted(sha256(query)) });
    assert.equal(lookup.body.errors[0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
  });
});
