/**
 * Query limits over HTTP through the real gateway (apps/gateway buildApp, the real supergraph).
 * Every subgraph URL points at a stub that counts calls: a refused query must never reach it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { createTestIssuer, injectGraphQL, type TestIssuer } from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';
import { routeEverySubgraph } from './testing/subgraphs';

let issuer: TestIssuer;
let stub: Server;
let subgraphCalls = 0;
let token: string;
const apps: FastifyInstance[] = [];

async function gateway(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/graphql`;
  const config = loadGatewayConfig({
    LOG_LEVEL: 'silent',
    SSO_ISSUER: issuer.issuer,
    TOKEN_AUDIENCE: issuer.audience,
    ...routeEverySubgraph(url),
    ...env,
  });
  const app = await buildApp(config, { jwks: issuer.jwks });
  apps.push(app);
  return app;
}

function nestedChildren(levels: number): string {
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `children(pageSize: 1) { list { ${inner} } }`;
  return `{ groups(pageSize: 1) { list { ${inner} } } }`;
}

before(async () => {
  issuer = await createTestIssuer();
  token = await issuer.token({ uid: 'u-1', email: 'limits@example.test' });
  stub = createServer((_request, response) => {
    subgraphCalls += 1;
    response.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[{"message":"stub"}]}');
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  for (const app of apps) await app.close();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});

describe('query limits with the default configuration', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await gateway();
    subgraphCalls = 0;
  });

  function assertTooComplex(
    response: Awaited<ReturnType<typeof injectGraphQL>>,
    rule: string,
    limit: number,
    measured: number,
  ) {
    assert.equal(response.status, 400, JSON.stringify(response.errors));
    assert.equal(response.data, undefined);
    assert.equal(response.errors?.length, 1);
    const [error] = response.errors ?? [];
    assert.deepEqual(error?.extensions, { code: 'QUERY_TOO_COMPLEX', rule, limit, measured });
    assert.match(error?.message ?? '', new RegExp(`${rule} is ${measured}, over the maximum of ${limit}`));
    assert.equal(subgraphCalls, 0, 'a refused query never reaches a subgraph');
  }

  test('depth over MAX_DEPTH (12) is QUERY_TOO_COMPLEX', async () => {
    // groups > list > (children > list) x 6 > id = depth 15
    assertTooComplex(await injectGraphQL(app, nestedChildren(6), { token }), 'depth', 12, 15);
  });

  test('aliases over MAX_ALIASES (30), counted through fragments, are QUERY_TOO_COMPLEX', async () => {
    const aliases = Array.from({ length: 8 }, (_, i) => `a${i}: id`).join(' ');
    const query = `{ a: group(id: "1") { ...F } b: group(id: "2") { ...F } c: group(id: "3") { ...F } d: group(id: "4") { ...F } }
      fragment F on Group { ${aliases} }`;
    assertTooComplex(await injectGraphQL(app, query, { token }), 'aliases', 30, 4 + 4 * 8);
  });

  test('nesting over MAX_NESTING (64) is QUERY_TOO_COMPLEX before parsing, not a broken stack', async () => {
    // 2,400 levels of list literal: 4,800 tokens, within MAX_TOKENS; the parser's recursion broke.
    const list = `{ devices(ids: ${'['.repeat(2400)}${']'.repeat(2400)}) { count } }`;
    assertTooComplex(await injectGraphQL(app, list, { token }), 'nesting', 64, 2402);
    const object = `{ devices(ids: ${'{a:'.repeat(1500)}1${'}'.repeat(1500)}) { count } }`;
    assertTooComplex(await injectGraphQL(app, object, { token }), 'nesting', 64, 1502);
    const selections = `{ ${'a { '.repeat(1600)}b${' }'.repeat(1600)} }`;
    assertTooComplex(await injectGraphQL(app, selections, { token }), 'nesting', 64, 1601);
    // Variables too: JSON.stringify (of a cache key, of a subgraph request) recurses as well.
    const variables = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
      },
      payload: `{"query":"query($ids: [ID]) { devices(ids: $ids) { count } }","variables":{"ids":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
    });
    assert.equal(variables.statusCode, 400);
    const [error] = variables.json().errors;
    assert.deepEqual(error.extensions, {
      code: 'QUERY_TOO_COMPLEX',
      rule: 'nesting',
      limit: 64,
      measured: 20_000,
      variable: 'ids',
    });
    assert.match(error.message, /^Variable \$ids nesting is 20000, over the maximum of 64/);
    const get = await app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent(list)}`,
      headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json' },
    });
    assert.equal(get.statusCode, 400);
    assert.equal(get.json().errors[0].extensions.rule, 'nesting');
  });

  test('tokens over MAX_TOKENS (5000) are QUERY_TOO_COMPLEX, not a parse failure', async () => {
    const query = `{ ${'__typename '.repeat(5000)}}`;
    assertTooComplex(await injectGraphQL(app, query, { token }), 'tokens', 5000, 5002);
  });

  test('cost multiplies by pageSize (literal) over MAX_COST (250000): QUERY_TOO_COMPLEX', async () => {
    const query = '{ devices(pageSize: 500) { list { id groups(pageSize: 200) { list { id label } } } } }';
    assertTooComplex(
      await injectGraphQL(app, query, { token }),
      'cost',
      250_000,
      1 + 500 * (2 + 1 + 200 * 3),
    );
  });

  test('cost reads pageSize from variables', async () => {
    const query =
      'query Q($n: Int, $m: Int = 20) { devices(pageSize: $n) { list { id groups(pageSize: $m) { list { id } } } } }';
    const response = await injectGraphQL(app, query, { token, variables: { n: 500, m: 300 } });
    assertTooComplex(response, 'cost', 250_000, 1 + 500 * (2 + 1 + 300 * 2));
  });

  test('an omitted pageSize is costed at the field its declared default, not a flat guess', async () => {
    // batteryAnnotations' @paged default is 500: leaving pageSize out asks as much as asking 500.
    const omitted = await injectGraphQL(
      app,
      '{ devices(pageSize: 500) { list { batteryAnnotations { ids } } } }',
      {
        token,
      },
    );
    assertTooComplex(omitted, 'cost', 250_000, 1 + 500 * (1 + 1 + 500 * 1));
    // readings (default 100) under 50 devices (default 50): 1 + 50 * (1 + 1 + 100 * 2) = 10,101
    const fits = await injectGraphQL(app, '{ devices { list { readings { list { id } } } } }', { token });
    assert.ok(fits.errors?.every((error) => error.extensions?.code !== 'QUERY_TOO_COMPLEX'));
    subgraphCalls = 0;
  });

  test('a client of the older application/json media type gets the refusal with HTTP 200', async () => {
    const deep = `{ groups { list { ${'children { list { '.repeat(7)}id${' } }'.repeat(7)} } } }`;
    const legacy = await injectGraphQL(app, deep, { token, headers: { accept: 'application/json' } });
    assert.equal(legacy.status, 200);
    assert.equal(legacy.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(legacy.errors?.[0]?.extensions?.code, 'QUERY_TOO_COMPLEX');
    const current = await injectGraphQL(app, deep, { token });
    assert.equal(current.status, 400, 'application/graphql-response+json keeps the 4xx');
    const anonymous = await injectGraphQL(app, deep, { headers: { accept: 'application/json' } });
    assert.equal(anonymous.status, 401, 'HTTP-level refusals keep their status');
  });

  test('a body over MAX_BODY_BYTES is HTTP 413 with a GraphQL error PAYLOAD_TOO_LARGE', async () => {
    const payload = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(1_000_001) } });
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload,
    });
    assert.equal(response.statusCode, 413);
    assert.match(String(response.headers['content-type']), /application\/json/);
    const body = response.json() as {
      errors: Array<{ message: string; extensions: Record<string, unknown> }>;
    };
    assert.equal(body.errors.length, 1);
    assert.deepEqual(body.errors[0]?.extensions, {
      code: 'PAYLOAD_TOO_LARGE',
      limit: 1_000_000,
      measured: Buffer.byteLength(payload),
    });
    assert.match(body.errors[0]?.message ?? '', /larger than the maximum of 1000000 bytes/);
    assert.equal(subgraphCalls, 0);
  });

  /** A request refused before GraphQL: its status, and one GraphQL error with the code. */
  async function refusal(request: {
    method?: 'POST' | 'PUT' | 'DELETE' | 'PATCH';
    headers?: Record<string, string>;
    payload?: string | Buffer;
  }) {
    const response = await app.inject({
      method: request.method ?? 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${token}`, ...request.headers },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
    assert.match(String(response.headers['content-type']), /application\/json/, response.body);
    const body = response.json() as { errors: Array<{ message: string; extensions: { code: string } }> };
    assert.equal(body.errors.length, 1, response.body);
    return { status: response.statusCode, headers: response.headers, error: body.errors[0]! };
  }

  test('a body that is not JSON, empty, or holding __proto__ is 400 BAD_REQUEST, saying what to send', async () => {
    const json = { 'content-type': 'application/json' };
    for (const payload of [
      '{"query": ',
      '',
      '{"query":"{ __typename }","variables":{"__proto__":{"x":1}}}',
    ]) {
      const { status, error } = await refusal({ headers: json, payload });
      assert.equal(status, 400, payload);
      assert.equal(error.extensions.code, 'BAD_REQUEST');
      assert.match(error.message, /send \{"query"/);
    }
    assert.match(
      (await refusal({ headers: json, payload: '{"a":{"__proto__":1}}' })).error.message,
      /__proto__/,
    );
    assert.equal(subgraphCalls, 0);
  });

  test('a media type other than JSON, or a compressed body, is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    for (const headers of [
      { 'content-type': 'text/xml' },
      { 'content-type': 'multipart/form-data; boundary=x' },
    ]) {
      const { status, error } = await refusal({ headers, payload: body });
      assert.equal(status, 415);
      assert.equal(error.extensions.code, 'UNSUPPORTED_MEDIA_TYPE');
      assert.match(error.message, /is not supported: POST application\/json/);
    }
    const { gzipSync } = await import('node:zlib');
    const compressed = await refusal({
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(body),
    });
    assert.equal(compressed.status, 415);
    assert.equal(compressed.error.extensions.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(compressed.error.message, /Content-Encoding "gzip" is not supported/);
    const identity = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'identity',
        authorization: `Bearer ${token}`,
      },
      payload: body,
    });
    assert.equal(identity.statusCode, 200, 'identity is no encoding');
    assert.equal(subgraphCalls, 0);
  });

  test('PUT, DELETE and PATCH are 405 METHOD_NOT_ALLOWED with Allow', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const { status, headers, error } = await refusal({ method });
      assert.equal(status, 405);
      assert.equal(headers.allow, 'GET, POST, OPTIONS');
      assert.equal(error.extensions.code, 'METHOD_NOT_ALLOWED');
    }
  });

  test('the standard IntrospectionQuery is answered when introspection is on', async () => {
    const response = await injectGraphQL<{ __schema: { queryType: { name: string } } }>(
      app,
      getIntrospectionQuery({ descriptions: true }),
      { token },
    );
    assert.equal(response.status, 200, JSON.stringify(response.errors));
    assert.equal(response.errors, undefined);
    assert.equal(response.data?.__schema.queryType.name, 'Query');
    assert.equal(subgraphCalls, 0);
  });

  test('an introspection bomb (30 aliased __schema walks, within the alias limit) is QUERY_TOO_COMPLEX', async () => {
    const walk = '__schema { types { name fields { name type { name } } } }';
    const query = `{ ${Array.from({ length: 30 }, (_, i) => `s${i}: ${walk}`).join(' ')} }`;
    const response = await injectGraphQL(app, query, { token });
    assertTooComplex(response, 'introspection', 3, 30);
  });

  for (const query of [
    '{ devices(pageSize: 50) { list { id groups { list { id label } } } } }',
    // two nested pages at their documented maxima (the cross-service tests ask this one)
    '{ groups(pageSize: 200) { list { id devices(pageSize: 500) { list { id } } } } }',
    // a pageSize over the field's maximum is the subgraph's BAD_USER_INPUT, not a cost refusal
    '{ devices(pageSize: 100000) { next } }',
  ]) {
    test(`within the limits, planned and sent to the subgraph: ${query}`, async () => {
      subgraphCalls = 0;
      const response = await injectGraphQL(app, query, { token });
      assert.ok(response.errors?.length, 'the stub subgraph fails');
      assert.ok(response.errors.every((error) => error.extensions?.code !== 'QUERY_TOO_COMPLEX'));
      assert.ok(subgraphCalls > 0, 'the query was planned and fetched');
      subgraphCalls = 0;
    });
  }
});

describe('limits are configurable', () => {
  test('MAX_DEPTH, MAX_ALIASES, MAX_TOKENS, MAX_COST, MAX_NESTING and MAX_BODY_BYTES from the environment', async () => {
    const app = await gateway({
      MAX_NESTING: '4',
      MAX_DEPTH: '3',
      MAX_ALIASES: '1',
      MAX_TOKENS: '20',
      MAX_COST: '100',
      MAX_BODY_BYTES: '400',
      COST_BUDGET_PER_MINUTE: '0',
      COST_BUDGET_ORGANIZATION_PER_MINUTE: '0',
    });
    subgraphCalls = 0;
    const depth = await injectGraphQL(app, '{ groups { list { owner { id } } } }', { token });
    assert.equal(depth.errors?.[0]?.extensions?.rule, 'depth');
    assert.equal(depth.errors?.[0]?.extensions?.limit, 3);
    const aliases = await injectGraphQL(app, '{ a: __typename b: __typename }', { token });
    assert.equal(aliases.errors?.[0]?.extensions?.rule, 'aliases');
    for (const [query, rule, limit, measured] of [
      ['{ devices(ids: [[["a"]]]) { count } }', 'nesting', 4, 5],
      [`{ ${'__typename '.repeat(20)}}`, 'tokens', 20, 22],
      // devices' declared default page size (@paged default 50) when pageSize is absent: 1 + 50 * (list + id) = 101
      ['{ devices { list { id } } }', 'cost', 100, 101],
    ] as const) {
      const refused = await injectGraphQL(app, query, { token });
      assert.deepEqual(refused.errors?.[0]?.extensions, { code: 'QUERY_TOO_COMPLEX', rule, limit, measured });
    }
    const body = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ query: `{ __typename } # ${'x'.repeat(500)}` }),
    });
    assert.equal(body.statusCode, 413);
    assert.equal(body.json().errors[0].extensions.limit, 400);
    assert.equal(subgraphCalls, 0);
  });

  test('a request head that never ends is answered 408 within HTTP_HEADERS_TIMEOUT_MS and closed', async () => {
    const app = await gateway({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
    });
    socket.write('POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Ty');
    assert.match(await answer, /^HTTP\/1\.1 408/);
  });

  test('invalid limit values stop the config with the variable named', () => {
    assert.throws(() => loadGatewayConfig({ MAX_DEPTH: '0' }), /MAX_DEPTH/);
    assert.throws(() => loadGatewayConfig({ MAX_COST: 'lots' }), /MAX_COST/);
  });
});
