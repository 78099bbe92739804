import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardOverload } from './overload';
import { createServer } from './server';

function guardedServer(limits: { maxInFlight: number; maxEventLoopDelayMs: number }, delay = () => 0) {
  const app = createServer({ name: 'overload-test', logLevel: 'silent' });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  void app.register(async (scope) => {
    guardOverload(app, scope, {
      limits,
      retryAfterSeconds: 2,
      eventLoopDelay: delay,
      callerOf: (request) => String(request.headers['x-caller'] ?? 'anonymous'),
      refuse: (reply, reason) => reply.send({ error: 'busy', reason }),
    });
    scope.get('/work', async () => {
      await held;
      return { ok: true };
    });
    scope.get('/quick', async () => ({ ok: true }));
  });
  app.get('/outside', async () => ({ ok: true }));
  return { app, release };
}

test('past maxInFlight a guarded route is 503 with Retry-After, /readyz says why, others are served', async () => {
  const { app, release } = guardedServer({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
  await app.ready();
  const first = app.inject({ method: 'GET', url: '/work' });
  const second = app.inject({ method: 'GET', url: '/work' });
  await new Promise(setImmediate);
  const refused = await app.inject({ method: 'GET', url: '/quick' });
  assert.equal(refused.statusCode, 503);
  assert.equal(refused.headers['retry-after'], '2');
  assert.match(refused.json().reason, /2 requests in flight/);
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 503);
  assert.match(ready.json().checks.load, /^overloaded: 2 requests in flight/);
  assert.equal(
    (await app.inject({ method: 'GET', url: '/outside' })).statusCode,
    200,
    'unguarded routes go on',
  );
  release();
  assert.equal((await first).statusCode, 200);
  assert.equal((await second).statusCode, 200);
  assert.equal((await app.inject({ method: 'GET', url: '/quick' })).statusCode, 200);
  assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  await app.close();
});

test('a slow event loop sheds the callers being served, not a caller with nothing in flight, until it recovers', async () => {
  let delay = 0;
  const { app, release } = guardedServer({ maxInFlight: 0, maxEventLoopDelayMs: 100 }, () => delay);
  const status = async (caller: string) =>
    (await app.inject({ method: 'GET', url: '/quick', headers: { 'x-caller': caller } })).statusCode;
  const busy = app.inject({ method: 'GET', url: '/work', headers: { 'x-caller': 'heavy' } });
  await new Promise(setImmediate);
  assert.equal(await status('heavy'), 200, 'a fast loop serves everyone');
  delay = 150;
  assert.equal(await status('heavy'), 503, 'the caller in flight waits');
  assert.equal(await status('light'), 200, 'a caller with nothing in flight is served');
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.equal(ready.json().status, 'degraded');
  assert.match(ready.json().checks.load, /^slow: event loop delay 150 ms/);
  delay = 80;
  assert.equal(await status('heavy'), 503, 'still over half the bound');
  delay = 40;
  assert.equal(await status('heavy'), 200);
  release();
  assert.equal((await busy).statusCode, 200);
  await app.close();
});
