/**
 * The shape of a subgraph app, owned by the generator: its templates make a subgraph of this
 * shape, and shape.test.ts holds every subgraph of the workspace to it, so a team moving from one
 * domain to another finds each thing in the same place.
 *
 *   apps/<name>/            README.md, project.json, package.json, tsconfig.json, migrations/,
 *                           src/, and optionally data/ (shipped reference data, with its licenses)
 *                           and scripts/ (what builds that data)
 *   src/                    main.ts (one line), manifest.ts (the declaration), index.ts (what the
 *                           app exports), app.ts (buildApp), config.ts (its environment),
 *                           paths.ts (its folders), reader.ts (the per-request context)
 *   src/schema/             the SDL, 00-base.graphql first, then one file per type family
 *   src/resolvers/          index.ts composing one module per type family
 *   src/data/               SQL: table specs, lookups, visibility
 *   src/domain/             business rules that are not SQL (optional)
 *   src/demo/               the demo data of the manifest's demoData hook
 *   src/import/             the manifest's importers (there when it declares one)
 *   src/testing/            test support: fixtures, harness (optional)
 *   src/*.test.ts           integration tests through HTTP
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const APP_ENTRIES = {
  required: ['README.md', 'project.json', 'package.json', 'tsconfig.json', 'migrations', 'src'],
  optional: ['data', 'scripts'],
};

export const SRC_FILES = [
  'main.ts',
  'manifest.ts',
  'index.ts',
  'app.ts',
  'config.ts',
  'paths.ts',
  'reader.ts',
];
export const SRC_FOLDERS = {
  required: ['schema', 'resolvers', 'data', 'demo'],
  optional: ['domain', 'import', 'testing'],
};

/** Lines resolvers/index.ts may have: it composes the type families' modules, it holds none. */
export const RESOLVER_INDEX_MAX_LINES = 60;

export interface ShapeFacts {
  /** The manifest declares at least one importer. */
  hasImporters: boolean;
}

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** How the app at `appDir` deviates from the shape; empty when it follows it. */
export function shapeDeviations(appDir: string, facts: ShapeFacts): string[] {
  const deviations: string[] = [];
  const appEntries = readdirSync(appDir);
  for (const entry of APP_ENTRIES.required)
    if (!appEntries.includes(entry)) deviations.push(`${entry}: missing`);
  for (const entry of appEntries)
    if (![...APP_ENTRIES.required, ...APP_ENTRIES.optional].includes(entry) && !entry.startsWith('.'))
      deviations.push(
        `${entry}: not part of the shape (${[...APP_ENTRIES.required, ...APP_ENTRIES.optional].join(', ')})`,
      );
  const src = join(appDir, 'src');
  if (!isDir(src)) return deviations;
  const entries = readdirSync(src);
  for (const file of SRC_FILES) if (!entries.includes(file)) deviations.push(`src/${file}: missing`);
  for (const folder of SRC_FOLDERS.required)
    if (!isDir(join(src, folder))) deviations.push(`src/${folder}/: missing`);
  if (facts.hasImporters && !isDir(join(src, 'import')))
    deviations.push('src/import/: missing (the manifest declares importers)');
  const known = new Set([...SRC_FILES, ...SRC_FOLDERS.required, ...SRC_FOLDERS.optional]);
  for (const entry of entries)
    if (!known.has(entry) && !entry.endsWith('.test.ts'))
      deviations.push(
        `src/${entry}: not part of the shape (a module belongs in one of ${[...SRC_FOLDERS.required, ...SRC_FOLDERS.optional].join(', ')})`,
      );
  const resolverIndex = join(src, 'resolvers', 'index.ts');
  if (!existsSync(resolverIndex)) deviations.push('src/resolvers/index.ts: missing');
  else {
    const lines = readFileSync(resolverIndex, 'utf8').split('\n').length;
    if (lines > RESOLVER_INDEX_MAX_LINES)
      deviations.push(
        `src/resolvers/index.ts: ${lines} lines; it composes one module per type family (at most ${RESOLVER_INDEX_MAX_LINES} lines)`,
      );
  }
  const schema = join(src, 'schema');
  if (isDir(schema) && !existsSync(join(schema, '00-base.graphql')))
    deviations.push('src/schema/00-base.graphql: missing (the federation link comes first)');
  return deviations;
}
