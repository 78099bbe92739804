import assert from 'node:assert/strict';
import { test } from 'node:test';
import { metricSample } from '@fleetgraph/testing';
import { createGatewayMetrics } from './metrics';

const value = async (metrics: ReturnType<typeof createGatewayMetrics>, series: string) =>
  metricSample(await metrics.registry.metrics(), series);

test('operation labels: unnamed is anonymous, non-GraphQL names are invalid, past the cap other', () => {
  const metrics = createGatewayMetrics({ maxOperations: 2, processMetrics: false });
  assert.equal(metrics.operationLabel(undefined), 'anonymous');
  assert.equal(metrics.operationLabel(''), 'anonymous');
  assert.equal(metrics.operationLabel('bad name"}'), 'invalid');
  assert.equal(metrics.operationLabel('x'.repeat(65)), 'invalid');
  assert.equal(metrics.operationLabel('First'), 'First');
  assert.equal(metrics.operationLabel('Second'), 'Second');
  assert.equal(metrics.operationLabel('Third'), 'other');
  assert.equal(metrics.operationLabel('First'), 'First', 'a name seen before the cap keeps its label');
});

test('cache lookups are counted by result', async () => {
  const metrics = createGatewayMetrics({ processMetrics: false });
  metrics.cacheLookup('hit');
  metrics.cacheLookup('hit');
  metrics.cacheLookup('miss');
  assert.equal(await value(metrics, 'gateway_cache_lookups_total{result="hit"}'), 2);
  assert.equal(await value(metrics, 'gateway_cache_lookups_total{result="miss"}'), 1);
  assert.equal(await value(metrics, 'gateway_cache_lookups_total{result="bypass"}'), 0);
});

test('error codes: odd values are UNKNOWN, distinct codes are capped at 50', async () => {
  const metrics = createGatewayMetrics({ processMetrics: false });
  metrics.graphqlError(undefined);
  metrics.graphqlError('not a code');
  for (let i = 0; i < 60; i++) metrics.graphqlError(`CODE_${i}`);
  assert.equal(await value(metrics, 'gateway_graphql_errors_total{code="UNKNOWN"}'), 2);
  assert.equal(await value(metrics, 'gateway_graphql_errors_total{code="CODE_49"}'), 1);
  assert.equal(await value(metrics, 'gateway_graphql_errors_total{code="CODE_50"}'), undefined);
  assert.equal(await value(metrics, 'gateway_graphql_errors_total{code="OTHER"}'), 10);
});

test('a failed subgraph call is timed and counted by reason; a good one only timed', async () => {
  const metrics = createGatewayMetrics({ processMetrics: false });
  metrics.subgraphFetch('geodecode', 'ok', 0.004);
  metrics.subgraphFetch('geodecode', 'timeout', 2);
  assert.equal(
    await value(metrics, 'gateway_subgraph_fetch_duration_seconds_count{subgraph="geodecode"}'),
    2,
  );
  assert.equal(
    await value(metrics, 'gateway_subgraph_fetch_duration_seconds_bucket{le="0.005",subgraph="geodecode"}'),
    1,
  );
  assert.equal(
    await value(metrics, 'gateway_subgraph_fetch_errors_total{subgraph="geodecode",reason="timeout"}'),
    1,
  );
  assert.equal(
    await value(metrics, 'gateway_subgraph_fetch_errors_total{subgraph="geodecode",reason="ok"}'),
    undefined,
  );
});
