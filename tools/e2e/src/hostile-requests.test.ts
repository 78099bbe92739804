/**
 * Client mistakes and hostile requests are answered with a 4xx or a coded GraphQL error, never a
 * 500 or an INTERNAL_SERVER_ERROR: every request of tools/e2e/fixtures/hostile-requests.json goes
 * through the real gateway, signed in as the demo user. Add a case to the file when one is found.
 * A case may name the code it must be answered with (`expect`), carry its body as JSON text
 * (`raw`, for bodies JSON.stringify cannot write), and ask to be sent to every subgraph's port
 * as well (`subgraphs`), where the same rule holds.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot } from '@fleetgraph/service-kit';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

interface HostileCase {
  name: string;
  body?: unknown;
  raw?: string;
  expect?: string;
  subgraphs?: boolean;
}

const CASES = JSON.parse(
  readFileSync(join(repoRoot, 'tools/e2e/fixtures/hostile-requests.json'), 'utf8'),
) as HostileCase[];

let stack: Stack;
let token: string;

before(async () => {
  stack = await startStack('hostile');
  token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
});
after(() => stack.close());

async function assertClientError(c: HostileCase, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...headers,
    },
    body: c.raw ?? JSON.stringify(c.body),
  });
  const text = await response.text();
  assert.ok(response.status < 500, `${url}: HTTP ${response.status}: ${text.slice(0, 500)}`);
  const body = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> };
  for (const error of body.errors ?? [])
    assert.notEqual(error.extensions?.code, 'INTERNAL_SERVER_ERROR', `${url}: ${text.slice(0, 500)}`);
  if (c.expect) assert.equal(body.errors?.[0]?.extensions?.code, c.expect, `${url}: ${text.slice(0, 500)}`);
}

for (const c of CASES) {
  test(`${c.name}: a client error, not a server error`, async () => {
    await assertClientError(c, stack.platform.urls.graphql);
    if (!c.subgraphs) return;
    for (const url of Object.values(stack.platform.urls.subgraphs))
      await assertClientError(c, url, stack.platform.subgraphHeaders);
  });
}
