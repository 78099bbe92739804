/**
 * In-flight collapsing of subgraph calls (data-source.ts): two identical queries of one login
 * while the first is still on its way cost the subgraph one call, and both get the answer; two
 * logins never share a call; SUBGRAPH_DEDUP=false turns it off. The stub subgraph holds its
 * answers until the test releases them, so "in flight" is a fact, not a timing.
 */
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createTestIssuer, injectGraphQL, type TestIssuer } from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';
import { routeEverySubgraph } from './testing/subgraphs';

let issuer: TestIssuer;
let stub: Server;
let held: ServerResponse[] = [];
let calls = 0;
/** `call` when the stub received one, `collapsed` when the gateway joined a call in flight. */
const events = new EventEmitter();
const apps: FastifyInstance[] = [];

before(async () => {
  issuer = await createTestIssuer();
  stub = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // The gateway's lookup of the caller's organization is answered at once; queries are held.
      if (Buffer.concat(chunks).toString().includes('organizationId')) {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: { account: { organizationId: 'org-dedup' } } }));
        return;
      }
      calls += 1;
      held.push(response);
      events.emit('call');
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  release();
  for (const app of apps) await app.close();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});

function release() {
  for (const response of held)
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ data: { account: { fullName: 'Held Answer' } } }));
  held = [];
}

async function gateway(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/graphql`;
  const app = await buildApp(
    loadGatewayConfig({
      LOG_LEVEL: 'silent',
      SSO_ISSUER: issuer.issuer,
      TOKEN_AUDIENCE: issuer.audience,
      RATE_LIMIT_PER_MINUTE: '0',
      ...routeEverySubgraph(url),
      ...env,
    }),
    { jwks: issuer.jwks, onSubgraphCollapsed: () => events.emit('collapsed') },
  );
  apps.push(app);
  return app;
}

/** Starts a request and waits for what it must cause (the stub receiving it, or its joining). */
async function send<T>(request: () => Promise<T>, causes: 'call' | 'collapsed') {
  const caused = once(events, causes);
  const answer = request();
  await caused;
  return { answer }; // wrapped: an async function's returned promise would be awaited
}

const collapsed = async (app: FastifyInstance) => {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  return Number(/gateway_subgraph_fetch_collapsed_total\{[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
};

const ask = (app: FastifyInstance, token: string) =>
  injectGraphQL(app, '{ account { fullName } }', { token });
const uid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

test('an identical query of the same login in flight is sent once; both callers get the answer', async () => {
  const app = await gateway();
  const token = await issuer.token({ uid: uid(1), email: 'one@example.test' });
  calls = 0;
  const { answer: first } = await send(() => ask(app, token), 'call');
  const { answer: second } = await send(() => ask(app, token), 'collapsed');
  assert.equal(await collapsed(app), 1, 'counted in the metrics');
  release();
  const answers = await Promise.all([first, second]);
  for (const answer of answers)
    assert.equal(answer.data?.account.fullName, 'Held Answer', JSON.stringify(answer));
  assert.equal(calls, 1, 'one call for two requests');
});

test('two logins never share a call', async () => {
  const app = await gateway();
  const [a, b] = await Promise.all([
    issuer.token({ uid: uid(2), email: 'a@example.test' }),
    issuer.token({ uid: uid(3), email: 'b@example.test' }),
  ]);
  calls = 0;
  const { answer: first } = await send(() => ask(app, a), 'call');
  const { answer: second } = await send(() => ask(app, b), 'call');
  assert.equal(calls, 2, 'the second login made its own call');
  release();
  await Promise.all([first, second]);
  assert.equal(await collapsed(app), 0);
});

test('SUBGRAPH_DEDUP=false sends every call', async () => {
  const app = await gateway({ SUBGRAPH_DEDUP: 'false' });
  const token = await issuer.token({ uid: uid(4), email: 'four@example.test' });
  calls = 0;
  const { answer: first } = await send(() => ask(app, token), 'call');
  const { answer: second } = await send(() => ask(app, token), 'call');
  assert.equal(calls, 2, 'the second call was sent too');
  release();
  await Promise.all([first, second]);
});
