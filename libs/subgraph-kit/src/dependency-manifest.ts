/**
 * The manifest of a subgraph this one depends on (`dependsOn`), found by the workspace convention
 * `apps/<name>/src/manifest.ts`. A subgraph migrates and (in tests) loads the fixture of what it
 * reads through this lookup only; discovering every subgraph is the tools' registry
 * (tools/subgraphs), which may depend on apps where a library may not.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '@fleetgraph/service-kit';
import type { SubgraphManifest } from './manifest';

export async function dependencyManifest(
  name: string,
  root: string = repoRoot,
): Promise<SubgraphManifest<any>> {
  const path = join(root, 'apps', name, 'src', 'manifest.ts');
  if (!existsSync(path)) throw new Error(`dependency ${name}: no manifest at ${path}`);
  const module = (await import(pathToFileURL(path).href)) as { default?: SubgraphManifest<any> };
  if (module.default?.name !== name)
    throw new Error(`dependency ${name}: ${path} does not export the manifest of ${name}`);
  return module.default;
}
