import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '@fleetgraph/service-kit';
import { subgraphsOf } from './supergraph';

test('the subgraphs of the committed supergraph, with their declared URLs', () => {
  const subgraphs = subgraphsOf(readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8'));
  assert.deepEqual(
    subgraphs.map((s) => s.name),
    ['fleet-core', 'gateway', 'geodecode', 'vehicle-data'],
  );
  for (const { url } of subgraphs) assert.match(url, /^http:\/\/localhost:\d+\//);
});
