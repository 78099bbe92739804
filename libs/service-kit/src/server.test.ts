import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createServer, MAX_ERROR_MESSAGE } from './server';

const app = createServer({ name: 'kit-test', logLevel: 'silent' });
let failing = true;
app.addReadinessCheck('database', async () => {
  if (failing) throw new Error('database unreachable');
});
app.addReadinessCheck('cache', async () => 'degraded: cache cold');
app.get('/boom', async () => {
  throw new Error('secret internal detail');
});
app.get('/teapot', async () => {
  throw Object.assign(new Error('short and stout'), { statusCode: 418, code: 'TEAPOT' });
});
app.post('/only-post', async () => ({ ok: true }));
app.get('/things/:id', async (request, reply) =>
  (request.params as { id: string }).id === 'gone' ? reply.callNotFound() : { ok: true },
);
after(() => app.close());

test('/healthz answers while the process lives', async () => {
  const response = await app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { status: 'ok', service: 'kit-test' });
});

test('/readyz is 503 with every check named while one fails, then 200 degraded', async () => {
  failing = true;
  const down = await app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(down.statusCode, 503);
  assert.deepEqual(down.json(), {
    status: 'not ready',
    service: 'kit-test',
    checks: { database: 'database unreachable', cache: 'degraded: cache cold' },
  });
  failing = false;
  const up = await app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(up.statusCode, 200);
  assert.deepEqual(up.json(), {
    status: 'degraded',
    service: 'kit-test',
    checks: { database: 'ok', cache: 'degraded: cache cold' },
  });
});

test('the request id: a sane x-request-id is echoed back, anything else replaced by a UUID', async () => {
  const given = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
  assert.equal(given.headers['x-request-id'], 'abc-123');
  const generated = await app.inject({ method: 'GET', url: '/healthz' });
  assert.match(
    String(generated.headers['x-request-id']),
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  const hostile = await app.inject({
    method: 'GET',
    url: '/healthz',
    headers: { 'x-request-id': 'a b\u0000<script>' },
  });
  assert.notEqual(hostile.headers['x-request-id'], 'a b\u0000<script>');
  assert.match(String(hostile.headers['x-request-id']), /^[0-9a-f-]{36}$/);
});

test('an internal error is hidden behind a generic message with the request id; a client error keeps its status', async () => {
  const boom = await app.inject({ method: 'GET', url: '/boom', headers: { 'x-request-id': 'req-1' } });
  assert.equal(boom.statusCode, 500);
  assert.deepEqual(boom.json(), {
    error: 'internal_error',
    message: 'Internal server error',
    requestId: 'req-1',
  });
  assert.doesNotMatch(boom.body, /secret internal detail/);
  const teapot = await app.inject({ method: 'GET', url: '/teapot' });
  assert.equal(teapot.statusCode, 418);
  assert.deepEqual(teapot.json(), { error: 'TEAPOT', message: 'short and stout' });
  const missing = await app.inject({ method: 'GET', url: '/nowhere?x=1' });
  assert.equal(missing.statusCode, 404);
  assert.deepEqual(missing.json(), { error: 'not_found', message: 'No route for GET /nowhere' });
});

test('a client error quoting the request is clipped: a 5,000-character path is not echoed whole', async () => {
  const path = `/${'a'.repeat(5_000)}`;
  const missing = await app.inject({ method: 'GET', url: path });
  assert.equal(missing.statusCode, 404);
  const { message } = missing.json() as { message: string };
  assert.equal(message, `${`No route for GET ${path}`.slice(0, MAX_ERROR_MESSAGE)}...`);
});

test('a path routed for other methods answers 405 with Allow, not 404', async () => {
  const put = await app.inject({ method: 'PUT', url: '/only-post?x=1' });
  assert.equal(put.statusCode, 405);
  assert.equal(put.headers.allow, 'POST');
  assert.deepEqual(put.json(), {
    error: 'method_not_allowed',
    message: 'PUT is not allowed on /only-post; use POST',
  });
  const del = await app.inject({ method: 'DELETE', url: '/things/7' });
  assert.equal(del.statusCode, 405);
  assert.equal(del.headers.allow, 'GET, HEAD');
  const missing = await app.inject({ method: 'PUT', url: '/things' });
  assert.equal(missing.statusCode, 404);
  const declined = await app.inject({ method: 'GET', url: '/things/gone' });
  assert.equal(declined.statusCode, 404, 'a GET route that finds nothing is not "use GET"');
  assert.equal(declined.headers.allow, undefined);
  const headDeclined = await app.inject({ method: 'HEAD', url: '/things/gone' });
  assert.equal(headDeclined.statusCode, 404);
});

test("a path Fastify cannot route (a bad escape, an over-long parameter) is a client error in the kit's shape", async () => {
  const badEscape = await app.inject({ method: 'GET', url: '/things/%ff' });
  assert.equal(badEscape.statusCode, 400);
  assert.deepEqual(badEscape.json(), {
    error: 'FST_ERR_BAD_URL',
    message: "'/things/%ff' is not a valid url component",
  });
  const longParameter = await app.inject({ method: 'GET', url: `/things/${'7'.repeat(500)}` });
  assert.equal(longParameter.statusCode, 414);
  assert.equal(longParameter.json().error, 'FST_ERR_MAX_PARAM_LENGTH');
  assert.ok(longParameter.json().message.length <= MAX_ERROR_MESSAGE + 3, 'the path is not echoed whole');
});

test("errorStyle oauth: the kit's own answers are RFC 6749 JSON with no-store", async () => {
  const oauth = createServer({
    name: 'kit-oauth',
    logLevel: 'silent',
    errorStyle: 'oauth',
    isUnavailable: (error) => (error as Error).message === 'database away',
  });
  oauth.get('/away', async () => {
    throw new Error('database away');
  });
  oauth.post('/token', async () => ({ ok: true }));
  oauth.get('/boom', async () => {
    throw new Error('secret internal detail');
  });
  after(() => oauth.close());
  const answers = {
    wrongMethod: await oauth.inject({ method: 'GET', url: '/token' }),
    missing: await oauth.inject({ method: 'GET', url: '/nowhere' }),
    badEscape: await oauth.inject({ method: 'GET', url: '/%00%ff' }),
    malformed: await oauth.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    }),
    boom: await oauth.inject({ method: 'GET', url: '/boom', headers: { 'x-request-id': 'req-2' } }),
    away: await oauth.inject({ method: 'GET', url: '/away', headers: { 'x-request-id': 'req-3' } }),
  };
  assert.equal(answers.away.statusCode, 503);
  assert.equal(answers.away.headers['retry-after'], '5');
  assert.deepEqual(answers.away.json(), {
    error: 'temporarily_unavailable',
    error_description: 'Temporarily unavailable; retry later',
    requestId: 'req-3',
  });
  assert.equal(answers.wrongMethod.statusCode, 405);
  assert.equal(answers.wrongMethod.headers.allow, 'POST');
  assert.deepEqual(answers.wrongMethod.json(), {
    error: 'method_not_allowed',
    error_description: 'GET is not allowed on /token; use POST',
  });
  assert.deepEqual(answers.missing.json(), {
    error: 'not_found',
    error_description: 'No route for GET /nowhere',
  });
  assert.equal(answers.badEscape.statusCode, 400);
  assert.deepEqual(answers.badEscape.json(), {
    error: 'invalid_request',
    error_description: "'/%00%ff' is not a valid url component",
  });
  assert.equal(answers.malformed.statusCode, 400);
  assert.equal(answers.malformed.json().error, 'invalid_request');
  assert.equal(typeof answers.malformed.json().error_description, 'string');
  assert.deepEqual(answers.boom.json(), {
    error: 'server_error',
    error_description: 'Internal server error',
    requestId: 'req-2',
  });
  for (const answer of Object.values(answers)) {
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers.pragma, 'no-cache');
    assert.equal(answer.json().message, undefined);
  }
});
