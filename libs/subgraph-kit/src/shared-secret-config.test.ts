import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '@fleetgraph/service-kit';
import { loadSubgraphConfig } from './config';

const load = (env: Record<string, string>) => loadSubgraphConfig('probe', 'PROBE', 4999, env);
const SECRET = 'a-shared-secret-of-enough-length';

test('a production subgraph refuses to start without SUBGRAPH_SHARED_SECRET', () => {
  assert.throws(
    () => load({ NODE_ENV: 'production' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(String(error.message), /SUBGRAPH_SHARED_SECRET/);
      return true;
    },
  );
});

test('with the secret, or the explicit opt-out, a production subgraph starts', () => {
  assert.equal(load({ NODE_ENV: 'production', SUBGRAPH_SHARED_SECRET: SECRET }).gatewaySecret, SECRET);
  assert.equal(
    load({ NODE_ENV: 'production', ALLOW_DIRECT_SUBGRAPH_ACCESS: 'true' }).gatewaySecret,
    undefined,
  );
});

test('outside production the secret is optional (a subgraph run alone, the tests)', () => {
  assert.equal(load({}).gatewaySecret, undefined);
  assert.throws(() => load({ SUBGRAPH_SHARED_SECRET: 'short' }), ConfigError);
});
