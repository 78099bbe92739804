/**
 * deploy/kubernetes as files: the objects of kubernetes.ts as YAML (formatted as the repository
 * formats YAML, so `prettier --check` and the staleness check agree), and the comparison of a
 * rendering with the committed folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { format, resolveConfig } from 'prettier';
import { repoRoot } from '@fleetgraph/service-kit';
import { loadSubgraphUnits } from '@fleetgraph/subgraphs';
import { kustomization, renderFiles, type DeployedSubgraph, type RenderOptions } from './kubernetes';

export const deployDir = (root: string = repoRoot) => join(root, 'deploy', 'kubernetes');

/** Every subgraph of the workspace, as the renderer needs it (the registry, never a list). */
export async function deployedSubgraphs(root: string = repoRoot): Promise<DeployedSubgraph[]> {
  return (await loadSubgraphUnits(root)).map((unit) => ({
    manifest: unit.manifest,
    project: unit.project.project,
  }));
}

/** The image tag the manifests name: the workspace's version. */
export function workspaceTag(root: string = repoRoot): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

async function yaml(documents: unknown[], header: string[], dir: string): Promise<string> {
  const text =
    header.map((line) => `# ${line}\n`).join('') +
    documents.map((document) => dump(document, { lineWidth: -1, noRefs: true })).join('---\n');
  const config = (await resolveConfig(join(dir, 'kustomization.yaml'))) ?? {};
  return format(text, { ...config, parser: 'yaml' });
}

/** The text of every file of deploy/kubernetes, by file name. */
export async function renderKubernetes(
  subgraphs: DeployedSubgraph[],
  options: RenderOptions,
  root: string = repoRoot,
): Promise<Map<string, string>> {
  const dir = deployDir(root);
  const files = renderFiles(subgraphs, options);
  const out = new Map<string, string>();
  for (const file of files) out.set(file.file, await yaml(file.objects, file.header, dir));
  out.set(
    'kustomization.yaml',
    await yaml(
      [kustomization(files, options)],
      [
        'Rendered by `npm run deploy:render` (tools/deploy): do not edit. `kubectl apply -k deploy/kubernetes`',
      ],
      dir,
    ),
  );
  return out;
}

/** What differs between a rendering and the folder: files changed, missing, or not rendered. */
export function staleFiles(rendered: Map<string, string>, dir: string): string[] {
  const present = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.yaml')) : [];
  const stale: string[] = [];
  for (const [name, text] of rendered) {
    const path = join(dir, name);
    if (!existsSync(path)) stale.push(`${name} (missing)`);
    else if (readFileSync(path, 'utf8') !== text) stale.push(`${name} (differs)`);
  }
  for (const name of present) if (!rendered.has(name)) stale.push(`${name} (not rendered any more)`);
  return stale.sort();
}
