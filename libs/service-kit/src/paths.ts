/** Absolute paths, never relative to the working directory. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${start}`);
    dir = parent;
  }
}

/** The repository root (the folder holding nx.json). */
export const repoRoot = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Where local state lives (embedded database, generated dev secrets); git-ignored. */
export const dataDir = process.env.FLEETGRAPH_DATA_DIR ?? join(repoRoot, '.data');
