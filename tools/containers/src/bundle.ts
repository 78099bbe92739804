/**
 * Bundles each service of the platform into one ES module (`dist/<app>/main.js`) with esbuild:
 * the gateway, the SSO, every subgraph the registry finds, and `dist/prepare/main.js` (the
 * migrations job). Workspace code is bundled; packages from node_modules stay external and are
 * copied, with their dependencies, into `dist/node_modules` (`--node-modules`), so the runtime
 * image carries only what the bundles import.
 *
 * Files the apps read next to their sources (SDL, demo data, the DTC catalogue, the supergraph)
 * keep their workspace paths: every `import.meta.url` of workspace code becomes the URL its source
 * file would have under the asset root (the folder above `dist/`, or FLEETGRAPH_ROOT), and the
 * Dockerfile copies those files there. Manifests the registry would import from `.ts` files are
 * registered in the bundle under their workspace paths (libs/subgraph-kit dependency-manifest.ts).
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';
import { loadSubgraphUnits } from '@fleetgraph/subgraphs';

export interface BundleEntry {
  /** `dist/<name>/main.js` */
  name: string;
  /** workspace-relative entry module */
  entry: string;
  /** workspace-relative manifest modules the bundle registers */
  manifests: string[];
  /** further workspace modules bundled to their own `.js` path (workers started by URL) */
  workers?: string[];
}

/** The bundles: one per service and the prepare job, from the registry. */
export async function bundleEntries(root: string = repoRoot): Promise<BundleEntry[]> {
  const units = await loadSubgraphUnits(root);
  const manifestOf = new Map(units.map((u) => [u.manifest.name, relative(root, u.project.manifestPath)]));
  return [
    { name: 'gateway', entry: 'apps/gateway/src/main.ts', manifests: [] },
    { name: 'sso', entry: 'apps/sso/src/main.ts', manifests: [] },
    ...units.map(({ manifest, project }) => ({
      name: manifest.name,
      entry: relative(root, join(project.dir, 'src', 'main.ts')),
      manifests: (manifest.dependsOn ?? []).map((d: string) => manifestOf.get(d) as string),
      workers: workersOf(root, relative(root, project.dir)),
    })),
    { name: 'prepare', entry: 'tools/start/src/prepare-main.ts', manifests: [...manifestOf.values()] },
  ];
}

/**
 * Worker modules an app starts by URL (`new URL('./x-worker.js', import.meta.url)`): by
 * convention, the files named `*-worker.ts` under its src folder.
 */
function workersOf(root: string, appDir: string): string[] {
  const src = join(root, appDir, 'src');
  if (!existsSync(src)) return [];
  return (readdirSync(src, { recursive: true }) as string[])
    .filter((file) => file.endsWith('-worker.ts'))
    .map((file) => join(appDir, 'src', file))
    .sort();
}

/** Packages from the registry stay external; the workspace's own (`@fleetgraph/*`) are bundled. */
const externalPackagesPlugin: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@fleetgraph/') || args.path.startsWith('fleetgraph:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Packages workspace code loads at run time without an import esbuild sees: `require('x')` and
 * `require.resolve('x')` through createRequire (with their dependencies), and `packageDir('x')`,
 * the explorer's static files (the package folder alone).
 */
const RUNTIME_REQUIRE = /require(?:\.resolve)?\(\s*['"]([^'"]+)['"]/g;
const PACKAGE_FILES = /packageDir\(\s*['"]([^'"]+)['"]/g;

const sourceUrlPlugin = (root: string, found: RuntimePackages): Plugin => ({
  name: 'workspace-source-urls',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      for (const [, specifier] of text.matchAll(RUNTIME_REQUIRE)) {
        const name = packageName(specifier as string);
        if (name && !isBuiltin(name)) found.withDependencies.add(name);
      }
      for (const [, name] of text.matchAll(PACKAGE_FILES)) found.filesOnly.add(name as string);
      if (!text.includes('import.meta.url')) return undefined;
      const asJs = relative(root, args.path).replace(/\.[cm]?ts$/, '.js');
      return {
        contents: text.replaceAll('import.meta.url', `__fgSourceUrl(${JSON.stringify(asJs)})`),
        loader: args.path.endsWith('.js') || args.path.endsWith('.mjs') ? 'js' : 'ts',
      };
    });
  },
});

const manifestsPlugin = (root: string, manifests: string[]): Plugin => ({
  name: 'bundled-manifests',
  setup(b) {
    b.onResolve({ filter: /^fleetgraph:manifests$/ }, () => ({ path: 'manifests', namespace: 'fg' }));
    b.onLoad({ filter: /.*/, namespace: 'fg' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: `globalThis.__FLEETGRAPH_MANIFESTS__ = {\n${manifests
        .map((m) => `  ${JSON.stringify(m)}: () => import(${JSON.stringify(`./${m}`)}),`)
        .join('\n')}\n};`,
    }));
  },
});

// Workspace code asks for its own URL through this; CommonJS packages bundled in get `require`.
// `up` leads from the bundle's folder to the asset root (the image's workspace folder).
const banner = (up: string) => `import { createRequire as __fgCreateRequire } from 'node:module';
import { fileURLToPath as __fgToPath, pathToFileURL as __fgToUrl } from 'node:url';
import { dirname as __fgDirname, join as __fgJoin } from 'node:path';
const require = __fgCreateRequire(import.meta.url);
const __fgRoot = process.env.FLEETGRAPH_ROOT ?? __fgJoin(__fgDirname(__fgToPath(import.meta.url)), ${JSON.stringify(up)});
const __fgSourceUrl = (path) => __fgToUrl(__fgJoin(__fgRoot, path)).href;`;

interface RuntimePackages {
  withDependencies: Set<string>;
  filesOnly: Set<string>;
}

export interface BundleResult {
  outputs: Record<string, number>;
  /** node_modules packages the bundles import or require */
  packages: string[];
  /** packages whose files only are read (no code of theirs runs) */
  filesOnly: string[];
}

export async function bundleAll(options: { root?: string; outDir?: string } = {}): Promise<BundleResult> {
  const root = options.root ?? repoRoot;
  const outDir = options.outDir ?? join(root, 'dist');
  const entries = await bundleEntries(root);
  const packages = new Set<string>();
  const runtime: RuntimePackages = { withDependencies: packages, filesOnly: new Set() };
  const outputs: Record<string, number> = {};
  const run = async (entryName: string, stdin: string, outfile: string, manifests: string[], up: string) => {
    const result = await build({
      stdin: { contents: stdin, resolveDir: root, sourcefile: `${entryName}-entry.js`, loader: 'js' },
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      outfile,
      sourcemap: 'linked',
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
      banner: { js: banner(up) },
      plugins: [externalPackagesPlugin, sourceUrlPlugin(root, runtime), manifestsPlugin(root, manifests)],
    });
    collectPackages(result.metafile, packages);
    outputs[relative(root, outfile)] = result.metafile.outputs[relative(root, outfile)]?.bytes ?? 0;
  };
  for (const entry of entries) {
    const stdin = [
      entry.manifests.length ? `import 'fleetgraph:manifests';` : '',
      `import ${JSON.stringify(`./${entry.entry}`)};`,
    ].join('\n');
    await run(entry.name, stdin, join(outDir, entry.name, 'main.js'), entry.manifests, '../..');
    // A worker is started from the URL its source would have: it is bundled to exactly that path.
    for (const worker of entry.workers ?? []) {
      await run(
        entry.name,
        `import ${JSON.stringify(`./${worker}`)};`,
        join(outDir, 'workspace', worker.replace(/\.ts$/, '.js')),
        [],
        relative(dirname(worker), '.'),
      );
    }
  }
  return { outputs, packages: [...packages].sort(), filesOnly: [...runtime.filesOnly].sort() };
}

/** The package name of a bare import (`@scope/name/sub` → `@scope/name`); undefined for builtins. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/'))
    return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return name;
}

function collectPackages(metafile: Metafile, into: Set<string>): void {
  for (const input of Object.values(metafile.inputs))
    for (const imported of input.imports)
      if (imported.external) {
        const name = packageName(imported.path);
        if (name && !isBuiltin(name)) into.add(name);
      }
}

const isBuiltin = (name: string) => builtinModules.includes(name);

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * Copies `packages` and everything they depend on (node's resolution: nested first, then each
 * parent's node_modules) from `from/node_modules` to `to/node_modules`, keeping the layout npm
 * made, so native addons built or fetched at install time come along as they are.
 */
export function copyPackageClosure(
  packages: string[],
  from: string,
  to: string,
  filesOnly: string[] = [],
): string[] {
  const copied = new Set<string>();
  for (const name of filesOnly) {
    const dir = resolvePackageDir(name, from, from);
    if (dir) copied.add(relative(from, dir));
  }
  const visit = (name: string, parentDir: string, optional: boolean) => {
    const dir = resolvePackageDir(name, parentDir, from);
    if (!dir) {
      if (optional) return;
      throw new Error(
        `package ${name} (needed by ${relative(from, parentDir) || 'a bundle'}) is not installed`,
      );
    }
    const rel = relative(from, dir);
    if (copied.has(rel)) return;
    copied.add(rel);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
    for (const dep of Object.keys(pkg.peerDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of packages) visit(name, from, false);
  for (const rel of copied) {
    mkdirSync(dirname(join(to, rel)), { recursive: true });
    cpSync(join(from, rel), join(to, rel), {
      recursive: true,
      dereference: false,
      verbatimSymlinks: true,
      filter: (source) => !NOT_AT_RUN_TIME.test(source),
    });
  }
  return [...copied].sort();
}

/**
 * Files no running service reads: type declarations, source maps, Markdown, and what a native
 * addon's compilation leaves beside its binary (objects, the C sources it was built from).
 */
const NOT_AT_RUN_TIME =
  /(\.d\.[cm]?ts|\.map|\.md|\.markdown)$|\/build\/Release\/(obj|obj\.target|\.deps)$|\/build\/Release\/test_extension\.node$|\/better-sqlite3\/(deps|src)$/i;

function resolvePackageDir(name: string, startDir: string, root: string): string | undefined {
  for (let dir = startDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || !dir.startsWith(root)) return undefined;
  }
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
