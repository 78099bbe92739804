/**
 * Client mistakes and hostile requests are answered with a 4xx or a coded GraphQL error, never a
 * 500 or an INTERNAL_SERVER_ERROR: every request of tools/e2e/fixtures/hostile-requests.json goes
 * through the real gateway, signed in as the demo user. Add a case to the file when one is found.
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
  body: unknown;
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

for (const c of CASES) {
  test(`${c.name}: a client error, not a server error`, async () => {
    const response = await fetch(stack.platform.urls.graphql, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      },
      body: JSON.stringify(c.body),
    });
    const text = await response.text();
    assert.ok(response.status < 500, `HTTP ${response.status}: ${text.slice(0, 500)}`);
    const body = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> };
    for (const error of body.errors ?? [])
      assert.notEqual(error.extensions?.code, 'INTERNAL_SERVER_ERROR', text.slice(0, 500));
  });
}
