/**
 * The explorer's session endpoint against a stub SSO token endpoint: a session close to expiry is
 * refreshed once however many requests ask at the same moment (two uses of one refresh token
 * would look like theft to the SSO and end the login), and an SSO that does not answer costs a
 * bounded wait, not a hung request.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot } from '@fleetgraph/service-kit';
import { createTestIssuer, type TestIssuer } from '@fleetgraph/testing';
import { sessionCodec } from './explorer/session';
import { deadUrl, routeEverySubgraph, startTestGateway } from './testing/subgraphs';

const SECRET = 'explorer-session-secret-of-32-characters!';
let issuer: TestIssuer;
let sso: Server;
let ssoUrl: string;
let onToken: (body: URLSearchParams, response: ServerResponse) => void = () => undefined;
const refreshes: string[] = [];
const closers: Array<() => Promise<void>> = [];

before(async () => {
  issuer = await createTestIssuer();
  sso = createServer((request: IncomingMessage, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const body = new URLSearchParams(raw);
      if (body.get('grant_type') === 'refresh_token') refreshes.push(body.get('refresh_token') ?? '');
      onToken(body, response);
    });
  });
  await new Promise<void>((resolve) => sso.listen(0, '127.0.0.1', resolve));
  ssoUrl = `http://127.0.0.1:${(sso.address() as AddressInfo).port}`;
  closers.push(async () => {
    sso.closeAllConnections();
    await new Promise<void>((resolve) => sso.close(() => resolve()));
  });
});
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function explorerGateway() {
  const dead = await deadUrl();
  const gateway = await startTestGateway(readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8'), issuer, {
    ...routeEverySubgraph(dead),
    EXPLORER_CLIENT_ID: 'fg_explorer_test',
    EXPLORER_CLIENT_SECRET: 'explorer-client-secret',
    EXPLORER_SESSION_SECRET: SECRET,
    EXPLORER_SSO_URL: ssoUrl,
    EXPLORER_PUBLIC_URL: 'http://localhost:4000',
  });
  closers.push(gateway.close);
  return gateway.app;
}

/** A session cookie whose access token expires in 10 s (inside the refresh margin). */
async function expiringSession(refreshToken: string) {
  const codec = sessionCodec(SECRET, true);
  const now = Math.floor(Date.now() / 1000);
  const accessToken = await issuer.token({ uid: 'u-explorer', email: 'explorer@example.test' });
  return `${codec.cookieName}=${codec.seal({ accessToken, refreshToken, expiresAt: now + 10, createdAt: now })}`;
}

const askSession = (app: Awaited<ReturnType<typeof explorerGateway>>, cookie: string) =>
  app.inject({
    method: 'GET',
    url: '/explorer/session',
    headers: { cookie, 'x-fleetgraph-explorer': '1', 'sec-fetch-site': 'same-origin' },
  });

test('concurrent session requests near expiry refresh the login once and all get the new token', async () => {
  const app = await explorerGateway();
  const fresh = await issuer.token({ uid: 'u-explorer', email: 'explorer@example.test' });
  onToken = (_body, response) => {
    // Answer a little later, so that every request arrives while the refresh is under way.
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          access_token: fresh,
          token_type: 'bearer',
          expires_in: 7200,
          refresh_token: 'r-2',
          scope: 'public read write',
        }),
      );
    }, 100);
  };
  refreshes.length = 0;
  const cookie = await expiringSession('r-1');
  const answers = await Promise.all(Array.from({ length: 5 }, () => askSession(app, cookie)));
  assert.deepEqual(refreshes, ['r-1'], 'one refresh at the SSO');
  for (const answer of answers) {
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(answer.json().signedIn, true);
    assert.equal(answer.json().accessToken, fresh);
  }
});

// Without the SSO timeout this request would hang: the test's own timeout then fails it.
test(
  'an SSO that never answers a refresh ends the wait after the timeout, signed out',
  { timeout: 30_000 },
  async () => {
    const app = await explorerGateway();
    onToken = () => undefined; // never answers
    const answer = await askSession(app, await expiringSession('r-hang'));
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.json().signedIn, false);
  },
);
