/** The front door's own rules (front.ts), on the in-memory store; e2e tests run it on the platform. */
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthError, type TokenVerifier, type UserContext } from '@fleetgraph/auth';
import { createCacheFront, type CacheFront } from './front-door';
import { scopeKeyOf } from '../cache/plugin';
import { memoryCacheStore, type CacheStore } from '../cache/store';

const USER: UserContext = {
  uid: 'u1',
  email: 'a@example.com',
  fullName: 'A',
  scopes: ['read'],
  jti: 'j1',
  exp: 4_000_000_000,
};
const QUERY = '{ account { fullName } }';
const BODY = '{"data":{"account":{"fullName":"A"}}}';
const ACCEPT = 'application/json';
const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

const verifier: TokenVerifier = {
  async verify(token) {
    if (token !== 'good') throw new AuthError('invalid_token', 'bad token');
    return USER;
  },
};

/** What the front wrote on a reply. */
interface Sent {
  status?: number;
  headers: Record<string, unknown>;
  body?: unknown;
}

function fakeReply(headers: Record<string, unknown> = {}, status = 200): { reply: FastifyReply; sent: Sent } {
  const sent: Sent = { headers: { ...headers }, status };
  const reply = {
    get statusCode() {
      return sent.status;
    },
    code(status: number) {
      sent.status = status;
      return reply;
    },
    headers(values: Record<string, unknown>) {
      Object.assign(sent.headers, values);
      return reply;
    },
    getHeader: (name: string) => sent.headers[name],
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

function fakeRequest(overrides: { method?: string; body?: unknown; accept?: string; token?: string } = {}) {
  return {
    method: overrides.method ?? 'POST',
    body: 'body' in overrides ? overrides.body : { query: QUERY, variables: {} },
    headers: { accept: overrides.accept ?? ACCEPT, authorization: `Bearer ${overrides.token ?? 'good'}` },
  } as unknown as FastifyRequest;
}

let store: CacheStore;
let front: CacheFront;
let hits: number;

/** What the full path does for a miss: settings saved, the entry stored, the front told, the headers sent. */
async function servedByFullPath(): Promise<void> {
  const settings = { scope: 'LOGIN' as const, ttl: 60, extendTtl: false };
  await store.saveSettings(USER.jti, settings, 60_000);
  const scopeKey = scopeKeyOf(USER, settings)!;
  const { epoch } = await store.lookup(scopeKey, 'k1');
  await store.store(scopeKey, 'k1', { epoch, body: BODY }, 60_000);
  front.remember({ query: QUERY, operationName: undefined, variables: {}, key: 'k1', operation: undefined });
  const { reply } = fakeReply({ ...HEADERS, 'x-fleetgraph-cache': 'miss' });
  await front.onSend(fakeRequest(), reply, `${BODY}\n`);
}

beforeEach(() => {
  store = memoryCacheStore({ maxBytes: 1 << 20 });
  hits = 0;
  front = createCacheFront({ store, verifier, onHit: () => void hits++ });
});

test('a request the full path has not served goes on to Apollo Server', async () => {
  const { reply, sent } = fakeReply();
  assert.equal(await front.preHandler(fakeRequest(), reply), undefined);
  assert.equal(sent.body, undefined);
  assert.equal(hits, 0);
});

test('a remembered request is answered with the stored bytes and the headers learnt for its Accept value', async () => {
  await servedByFullPath();
  const { reply, sent } = fakeReply();
  assert.equal(await front.preHandler(fakeRequest(), reply), reply);
  assert.equal(sent.status, 200);
  assert.equal(sent.body, `${BODY}\n`);
  assert.deepEqual(sent.headers, { ...HEADERS, 'x-fleetgraph-cache': 'hit' });
  assert.equal(hits, 1);
});

test('GET, extensions, other variables, another operation name or a bad token are never answered', async () => {
  await servedByFullPath();
  const variants = [
    fakeRequest({ method: 'GET' }),
    fakeRequest({ body: { query: QUERY, variables: {}, extensions: { persistedQuery: {} } } }),
    fakeRequest({ body: { query: QUERY, variables: { a: 1 } } }),
    fakeRequest({ body: { query: QUERY, variables: {}, operationName: 'Other' } }),
    fakeRequest({ body: { query: 42 } }),
    fakeRequest({ body: null }),
    fakeRequest({ token: 'bad' }),
    fakeRequest({ accept: 'application/graphql-response+json' }),
  ];
  for (const request of variants) {
    const { reply, sent } = fakeReply();
    assert.equal(await front.preHandler(request, reply), undefined);
    assert.equal(sent.body, undefined);
  }
  const { reply } = fakeReply();
  assert.equal(await front.preHandler(fakeRequest(), reply), reply, 'control: the remembered request is');
  assert.equal(hits, 1);
});

test('an outdated entry (softFlush) or a forgotten front sends the request on', async () => {
  await servedByFullPath();
  await store.bumpEpoch(scopeKeyOf(USER, { scope: 'LOGIN', ttl: 60, extendTtl: false })!);
  assert.equal(await front.preHandler(fakeRequest(), fakeReply().reply), undefined, 'outdated');
  await servedByFullPath();
  assert.ok(await front.preHandler(fakeRequest(), fakeReply().reply), 'control: stored again');
  front.forget();
  assert.equal(await front.preHandler(fakeRequest(), fakeReply().reply), undefined, 'forgotten');
});

test('only a 200 hit or miss of the full path teaches the headers of an Accept value', async () => {
  await servedByFullPath();
  const accept = 'application/graphql-response+json';
  const taught = (headers: Record<string, unknown>, status = 200) =>
    front.onSend(fakeRequest({ accept }), fakeReply(headers, status).reply, '');
  await taught({ 'content-type': 'application/graphql-response+json', 'x-fleetgraph-cache': 'bypass' });
  await taught({ 'content-type': 'application/graphql-response+json', 'x-fleetgraph-cache': 'miss' }, 400);
  assert.equal(await front.preHandler(fakeRequest({ accept }), fakeReply().reply), undefined);
  await taught({ 'content-type': 'application/graphql-response+json', 'x-fleetgraph-cache': 'hit' });
  const { reply, sent } = fakeReply();
  assert.equal(await front.preHandler(fakeRequest({ accept }), reply), reply);
  assert.equal(sent.headers['content-type'], 'application/graphql-response+json');
});
