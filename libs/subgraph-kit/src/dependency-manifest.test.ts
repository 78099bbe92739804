/**
 * A bundled service carries no TypeScript sources: the manifests its bundle registers under their
 * workspace paths are found there first, and a path nothing registered still fails clearly.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { dependencyManifest, importManifestModule } from './dependency-manifest';

test('a manifest registered by a bundle is loaded from the registration, not from the disk', async () => {
  const root = '/nowhere';
  const manifest = { name: 'bundled-only' };
  const registry = globalThis as { __FLEETGRAPH_MANIFESTS__?: Record<string, () => Promise<unknown>> };
  registry.__FLEETGRAPH_MANIFESTS__ = {
    'apps/bundled-only/src/manifest.ts': async () => ({ default: manifest }),
  };
  try {
    assert.equal(await dependencyManifest('bundled-only', root), manifest);
    await assert.rejects(
      importManifestModule(join(root, 'apps', 'other', 'src', 'manifest.ts'), root),
      /no manifest at \/nowhere\/apps\/other\/src\/manifest\.ts/,
    );
  } finally {
    delete registry.__FLEETGRAPH_MANIFESTS__;
  }
});
