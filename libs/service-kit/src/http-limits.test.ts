/**
 * The HTTP limits on a real listening server: a client that never finishes its request head is
 * answered 408 and closed; connections past the per-address cap are closed as they open while
 * those within it are served.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_HTTP_LIMITS, httpLimitsOf, HTTP_LIMITS_ENV } from './http-limits';
import { createServer } from './server';

let app: FastifyInstance;
let port: number;

before(async () => {
  app = createServer({
    name: 'limits-test',
    logLevel: 'silent',
    http: {
      ...DEFAULT_HTTP_LIMITS,
      headersMs: 300,
      requestMs: 600,
      checkEveryMs: 100,
      maxConnectionsPerAddress: 3,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
after(() => app.close());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Everything the server sent until it closed the connection. */
function answerUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
  });
}

/** One request on an open connection; resolves with the status line. */
function ask(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
    socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
  });
}

test('a request head that never ends is answered 408 and its connection closed', async () => {
  const socket = await open();
  const answer = answerUntilClosed(socket);
  socket.write('GET /healthz HTTP/1.1\r\nHost: te');
  assert.match(await answer, /^HTTP\/1\.1 408/);
});

test('connections past the per-address cap are closed at once; the others are served', async () => {
  const kept = [await open(), await open(), await open()];
  const extra = await open();
  assert.equal(await answerUntilClosed(extra), '', 'closed without an answer');
  for (const socket of kept) assert.equal(await ask(socket), 'HTTP/1.1 200 OK');
  for (const socket of kept) socket.destroy();
});

test('the limits come from the environment; a request deadline under the headers one is raised to it', () => {
  const parsed = Object.fromEntries(
    Object.entries(HTTP_LIMITS_ENV).map(([name, field]) => [name, field.parse(undefined)]),
  );
  assert.deepEqual(httpLimitsOf(parsed), DEFAULT_HTTP_LIMITS);
  const limits = httpLimitsOf({ ...parsed, HTTP_HEADERS_TIMEOUT_MS: 20_000, HTTP_REQUEST_TIMEOUT_MS: 5_000 });
  assert.equal(limits.requestMs, 20_000);
});
