import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '@fleetgraph/service-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { subgraphsOf } from '@fleetgraph/gateway';

test("the committed supergraph routes every subgraph manifest, and the gateway's own, at its declared port", async () => {
  const subgraphs = subgraphsOf(readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8'));
  const manifests = await loadSubgraphManifests();
  assert.deepEqual(
    subgraphs.map((s) => s.name),
    [...manifests.map((m) => m.name), 'gateway'].sort(),
  );
  for (const { url } of subgraphs) assert.match(url, /^http:\/\/localhost:\d+\//);
  for (const m of manifests)
    assert.equal(subgraphs.find((s) => s.name === m.name)?.url, `http://localhost:${m.port}/graphql`);
});
