/**
 * Finds the subgraphs of the workspace: every `apps/<dir>/project.json` tagged `type:subgraph`,
 * with its manifest at `apps/<dir>/src/manifest.ts`. This is the only place that knows where
 * subgraphs live; nothing else lists them.
 *
 * It lives among the tools because it imports apps: the composition roots (start, compose, seed,
 * e2e, bench) may depend on apps, a library may not.
 *
 * `subgraphProjects()` reads only project.json files (synchronous, no app code loaded);
 * `loadSubgraphManifests()` imports each manifest, ordered so that dependencies come first.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';
import { importManifestModule, type SubgraphManifest } from '@fleetgraph/subgraph-kit';

export const SUBGRAPH_TAG = 'type:subgraph';

export interface SubgraphProject {
  /** Nx project name (the folder name under apps/) */
  project: string;
  /** absolute folder of the app */
  dir: string;
  /** absolute path of its manifest module */
  manifestPath: string;
}

/** The subgraph projects under `<root>/apps`, by folder name. */
export function subgraphProjects(root: string = repoRoot): SubgraphProject[] {
  const appsDir = join(root, 'apps');
  if (!existsSync(appsDir)) return [];
  return readdirSync(appsDir)
    .sort()
    .flatMap((entry) => {
      const dir = join(appsDir, entry);
      const projectFile = join(dir, 'project.json');
      if (!existsSync(projectFile)) return [];
      const project = JSON.parse(readFileSync(projectFile, 'utf8')) as { name?: string; tags?: string[] };
      if (!project.tags?.includes(SUBGRAPH_TAG)) return [];
      return [{ project: project.name ?? entry, dir, manifestPath: join(dir, 'src', 'manifest.ts') }];
    });
}

/** Imports one project's manifest (its default export). */
export async function loadManifest(
  project: SubgraphProject,
  root: string = repoRoot,
): Promise<SubgraphManifest<any>> {
  const module = await importManifestModule(project.manifestPath, root).catch((error: Error) => {
    throw new Error(`subgraph ${project.project}: ${error.message}`);
  });
  if (!module.default?.name)
    throw new Error(
      `subgraph ${project.project}: ${project.manifestPath} has no default export from defineSubgraph`,
    );
  return module.default;
}

/** A subgraph's folder and its manifest. */
export interface SubgraphUnit {
  project: SubgraphProject;
  manifest: SubgraphManifest<any>;
}

/** Every subgraph with its manifest, dependencies before dependants, then by name. */
export async function loadSubgraphUnits(root: string = repoRoot): Promise<SubgraphUnit[]> {
  const projects = subgraphProjects(root);
  const manifests = await Promise.all(projects.map((project) => loadManifest(project, root)));
  checkUnique(manifests);
  const projectOf = new Map(manifests.map((m, i) => [m, projects[i] as SubgraphProject]));
  return orderByDependencies(manifests).map((manifest) => ({
    project: projectOf.get(manifest) as SubgraphProject,
    manifest,
  }));
}

/** Every subgraph's manifest, dependencies before dependants, then by name. */
export async function loadSubgraphManifests(root: string = repoRoot): Promise<SubgraphManifest<any>[]> {
  return (await loadSubgraphUnits(root)).map((unit) => unit.manifest);
}

/** The manifest of one subgraph by name (a test loading fleet-core's fixture, for example). */
export async function subgraphManifest(
  name: string,
  root: string = repoRoot,
): Promise<SubgraphManifest<any>> {
  // By convention the folder is named after the subgraph: load only that manifest, so a sibling
  // being written at the same time cannot break a test that needs just this one.
  const conventional = subgraphProjects(root).find((p) => p.dir.endsWith(`/apps/${name}`));
  if (conventional) {
    const manifest = await loadManifest(conventional, root);
    if (manifest.name === name) return manifest;
  }
  const found = (await loadSubgraphManifests(root)).find((m) => m.name === name);
  if (!found) throw new Error(`no subgraph named ${name}`);
  return found;
}

function checkUnique(manifests: SubgraphManifest<any>[]): void {
  for (const key of ['name', 'port', 'envPrefix', 'dbSchema'] as const) {
    const seen = new Map<unknown, string>();
    for (const m of manifests) {
      const other = seen.get(m[key]);
      if (other)
        throw new Error(`subgraphs ${other} and ${m.name} share the same ${key} (${String(m[key])})`);
      seen.set(m[key], m.name);
    }
  }
}

/** Topological order over `dependsOn` (ties by name); a cycle or an unknown dependency is an error. */
export function orderByDependencies<M extends Pick<SubgraphManifest, 'name' | 'dependsOn'>>(
  manifests: M[],
): M[] {
  const byName = new Map(manifests.map((m) => [m.name, m]));
  const ordered: M[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (m: M, path: string[]): void => {
    if (state.get(m.name) === 'done') return;
    if (state.get(m.name) === 'visiting')
      throw new Error(`subgraph dependency cycle: ${[...path, m.name].join(' -> ')}`);
    state.set(m.name, 'visiting');
    for (const dependency of [...(m.dependsOn ?? [])].sort()) {
      const target = byName.get(dependency);
      if (!target) throw new Error(`subgraph ${m.name} depends on unknown subgraph ${dependency}`);
      visit(target, [...path, m.name]);
    }
    state.set(m.name, 'done');
    ordered.push(m);
  };
  for (const m of [...manifests].sort((a, b) => a.name.localeCompare(b.name))) visit(m, []);
  return ordered;
}
