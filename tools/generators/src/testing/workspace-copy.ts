/**
 * A throwaway copy of the workspace for tests that change the tree (the generator's): the files
 * git tracks, and a node_modules of links to this workspace's installed packages, except the
 * workspace's own packages (@fleetgraph/*), which link into the copy, as `npm install` would.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  existsSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface WorkspaceCopy {
  root: string;
  /** Links a workspace package of the copy into its node_modules (what `npm install` does). */
  linkPackage(dir: string): void;
  remove(): void;
}

export function copyWorkspace(source: string): WorkspaceCopy {
  const root = mkdtempSync(join(tmpdir(), 'fleetgraph-copy-'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: source, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(source, f)));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(source, file), join(root, file));
  }
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@fleetgraph'), { recursive: true });
  for (const entry of readdirSync(join(source, 'node_modules'))) {
    if (entry === '@fleetgraph') continue;
    symlinkSync(join(source, 'node_modules', entry), join(modules, entry));
  }
  const linkPackage = (dir: string) => {
    const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
    const target = join(modules, name);
    rmSync(target, { force: true });
    symlinkSync(dir, target);
  };
  for (const group of ['apps', 'libs', 'tools'])
    for (const entry of readdirSync(join(root, group)))
      if (existsSync(join(root, group, entry, 'package.json'))) linkPackage(join(root, group, entry));
  return { root, linkPackage, remove: () => rmSync(root, { recursive: true, force: true }) };
}
