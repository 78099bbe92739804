/**
 * The manifest of a subgraph this one depends on (`dependsOn`), found by the workspace convention
 * `apps/<name>/src/manifest.ts`. A subgraph migrates and (in tests) loads the fixture of what it
 * reads through this lookup only; discovering every subgraph is the tools' registry
 * (tools/subgraphs), which may depend on apps where a library may not.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '@fleetgraph/service-kit';
import type { SubgraphManifest } from './manifest';

export async function dependencyManifest(
  name: string,
  root: string = repoRoot,
): Promise<SubgraphManifest<any>> {
  const path = join(root, 'apps', name, 'src', 'manifest.ts');
  const module = await importManifestModule(path, root);
  if (module.default?.name !== name)
    throw new Error(`dependency ${name}: ${path} does not export the manifest of ${name}`);
  return module.default;
}

type ManifestModule = { default?: SubgraphManifest<any> };

/**
 * A bundled service (the container images' `dist/<app>/main.js`) carries no TypeScript sources: its
 * bundle registers the manifests it may load under their workspace paths before the entry point
 * runs (tools/containers/src/bundle.ts). Everywhere else the module is imported from its path.
 */
export async function importManifestModule(path: string, root: string = repoRoot): Promise<ManifestModule> {
  const bundled = (globalThis as { __FLEETGRAPH_MANIFESTS__?: Record<string, () => Promise<ManifestModule>> })
    .__FLEETGRAPH_MANIFESTS__;
  const load = bundled?.[relative(root, path)];
  if (load) return load();
  if (!existsSync(path)) throw new Error(`no manifest at ${path}`);
  return (await import(pathToFileURL(path).href)) as ManifestModule;
}
