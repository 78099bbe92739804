import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadGatewayConfig } from './config';

test('SUBGRAPH_<NAME>_TIMEOUT_MS sets one subgraph timeout; SUBGRAPH_TIMEOUT_MS stays the default', () => {
  const config = loadGatewayConfig({
    SUBGRAPH_TIMEOUT_MS: '5000',
    SUBGRAPH_VEHICLE_DATA_TIMEOUT_MS: '1500',
    SUBGRAPH_GEODECODE_TIMEOUT_MS: '250',
  });
  assert.equal(config.subgraphTimeoutMs, 5000);
  assert.deepEqual(config.subgraphTimeouts, { 'vehicle-data': 1500, geodecode: 250 });
});

test('operating defaults: bounded pool, sized caches, metrics open, readiness probes', () => {
  const config = loadGatewayConfig({});
  assert.equal(config.subgraphConnections, 64);
  assert.equal(config.queryPlanCacheMb, 30);
  assert.equal(config.documentCacheMb, 30);
  assert.equal(config.metricsEnabled, true);
  assert.equal(config.metricsToken, undefined);
  assert.equal(config.supergraphWatch, true);
  assert.equal(config.readinessProbeTimeoutMs, 1000);
});

test('a zero timeout or a short metrics token is refused', () => {
  assert.throws(
    () => loadGatewayConfig({ SUBGRAPH_GEODECODE_TIMEOUT_MS: '0' }),
    /SUBGRAPH_GEODECODE_TIMEOUT_MS/,
  );
  assert.throws(() => loadGatewayConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN/);
});

test('CORS_ORIGINS: none by default (same origin only); origins or * listed; anything else refused', () => {
  assert.deepEqual(loadGatewayConfig({}).corsOrigins, []);
  assert.deepEqual(
    loadGatewayConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins,
    ['https://app.example.com', 'http://localhost:5173'],
  );
  assert.deepEqual(loadGatewayConfig({ CORS_ORIGINS: '*' }).corsOrigins, ['*']);
  for (const bad of [
    'https://app.example.com/',
    'https://app.example.com/path',
    'app.example.com',
    'ftp://x.example',
  ])
    assert.throws(() => loadGatewayConfig({ CORS_ORIGINS: bad }), /CORS_ORIGINS: .* is not an origin/, bad);
});

test('SUBGRAPH_DEDUP and APOLLO_TELEMETRY_DISABLED: on by default, read like every other switch, bad values refused', () => {
  const defaults = loadGatewayConfig({});
  assert.equal(defaults.subgraphDedup, true);
  assert.equal(defaults.apolloTelemetry, false);
  for (const off of ['false', '0', 'no']) {
    assert.equal(loadGatewayConfig({ SUBGRAPH_DEDUP: off }).subgraphDedup, false, off);
    assert.equal(loadGatewayConfig({ APOLLO_TELEMETRY_DISABLED: off }).apolloTelemetry, true, off);
  }
  for (const on of ['true', '1', 'yes']) {
    assert.equal(loadGatewayConfig({ SUBGRAPH_DEDUP: on }).subgraphDedup, true, on);
    assert.equal(loadGatewayConfig({ APOLLO_TELEMETRY_DISABLED: on }).apolloTelemetry, false, on);
  }
  assert.throws(() => loadGatewayConfig({ SUBGRAPH_DEDUP: 'off' }), /SUBGRAPH_DEDUP/);
  assert.throws(() => loadGatewayConfig({ APOLLO_TELEMETRY_DISABLED: 'maybe' }), /APOLLO_TELEMETRY_DISABLED/);
});
