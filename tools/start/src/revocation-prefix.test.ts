/**
 * The SSO writes the revocation list and the gateway and subgraphs read it: with Redis they meet
 * only if all read REVOCATION_PREFIX alike. The gateway's use of it is proven over HTTP in
 * apps/gateway/src/revocation-prefix.integration.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_REVOCATION_PREFIX } from '@fleetgraph/auth';
import { loadGatewayConfig } from '@fleetgraph/gateway';
import { loadSsoConfig } from '@fleetgraph/sso';
import { loadSubgraphConfig } from '@fleetgraph/subgraph-kit';

const prefixes = (env: Record<string, string>) => [
  loadSsoConfig(env).revocationPrefix,
  loadGatewayConfig(env).revocationPrefix,
  loadSubgraphConfig('probe', 'PROBE', 4999, env).revocationPrefix,
];

test('SSO, gateway and subgraphs read REVOCATION_PREFIX alike, fleetgraph:revoked: by default', () => {
  assert.equal(DEFAULT_REVOCATION_PREFIX, 'fleetgraph:revoked:');
  assert.deepEqual(prefixes({}), Array(3).fill(DEFAULT_REVOCATION_PREFIX));
  assert.deepEqual(prefixes({ REVOCATION_PREFIX: 'staging:revoked:' }), Array(3).fill('staging:revoked:'));
});

test('an empty REVOCATION_PREFIX is refused by every service', () => {
  assert.throws(() => loadSsoConfig({ REVOCATION_PREFIX: '' }), /REVOCATION_PREFIX/);
  assert.throws(() => loadGatewayConfig({ REVOCATION_PREFIX: '' }), /REVOCATION_PREFIX/);
  assert.throws(
    () => loadSubgraphConfig('probe', 'PROBE', 4999, { REVOCATION_PREFIX: '' }),
    /REVOCATION_PREFIX/,
  );
});
