/**
 * The files of the platform on containers stay true to the manifests: the committed
 * deploy/containers files are what the manifests render to (a stale file fails, with the command
 * that fixes it), every subgraph runs as REPLICAS instances behind its own HAProxy backend, and
 * every service bundle the image builds is one the registry knows.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { bundleEntries, packageName } from './bundle';
import { instanceName, REPLICAS } from './compose-file';
import { renderedFiles } from './platform';

const manifests = await loadSubgraphManifests();

test('deploy/containers is what the manifests render to', async () => {
  for (const [path, text] of Object.entries(await renderedFiles()))
    assert.equal(readFileSync(path, 'utf8'), text, `${path} is stale: npm run containers -- render`);
});

test('every subgraph runs as replicas that wait for migrations, behind the balancer', async () => {
  const files = await renderedFiles();
  const [composeText, haproxy] = Object.values(files) as [string, string];
  const compose = load(composeText) as {
    services: Record<
      string,
      { command?: string[]; environment?: Record<string, string>; depends_on?: object }
    >;
  };
  for (const m of manifests) {
    for (let i = 1; i <= REPLICAS; i++) {
      const service = compose.services[instanceName(m.name, i)];
      assert.ok(service, `${m.name} replica ${i}`);
      assert.deepEqual(service.command, ['node', `dist/${m.name}/main.js`]);
      assert.equal(service.environment?.DATABASE_MIGRATIONS, 'wait');
      assert.equal(service.environment?.[`${m.envPrefix}_PORT`], String(m.port));
      assert.ok(
        haproxy.includes(`server ${instanceName(m.name, i)} ${instanceName(m.name, i)}:${m.port} check`),
      );
    }
    assert.ok(haproxy.includes(`frontend ${m.name}\n  bind :${m.port}\n`), m.name);
    for (const gateway of [1, 2].map((i) => compose.services[instanceName('gateway', i)]))
      assert.equal(gateway?.environment?.[subgraphUrlVariable(m.name)], `http://haproxy:${m.port}/graphql`);
  }
  assert.deepEqual(compose.services.prepare?.command, ['node', 'dist/prepare/main.js']);
});

test('the image bundles the gateway, the SSO, every subgraph and the migrations job', async () => {
  const names = (await bundleEntries()).map((e) => e.name);
  assert.deepEqual(names.sort(), ['gateway', 'prepare', 'sso', ...manifests.map((m) => m.name)].sort());
});

test('package names of bare imports', () => {
  assert.equal(packageName('@aws-sdk/client-s3/dist/x.js'), '@aws-sdk/client-s3');
  assert.equal(packageName('pg'), 'pg');
  assert.equal(packageName('lru-cache/min'), 'lru-cache');
  assert.equal(packageName('node:fs'), undefined);
  assert.equal(packageName('./local'), undefined);
});
