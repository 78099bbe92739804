/**
 * The products the benchmarks compare Fleetgraph with (Hive Gateway, node-oidc-provider) are not
 * workspace dependencies: a plain `npm install` of the platform never downloads them. They live in
 * tools/bench/peers with a lockfile of their own, installed there the first time a benchmark
 * needs them (`npm ci --prefix tools/bench/peers`), and their runner scripts live beside them so
 * that they resolve from that folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';

export const PEERS_DIR = join(repoRoot, 'tools/bench/peers');

/** The path of a peer runner script (tools/bench/peers/src/<script>), its packages installed. */
export function peerScript(script: string): string {
  installPeers();
  return join(PEERS_DIR, 'src', script);
}

/** Installs the peers' packages from their lockfile unless they are there already. */
export function installPeers(): void {
  const { dependencies } = JSON.parse(readFileSync(join(PEERS_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const missing = Object.keys(dependencies).filter(
    (name) => !existsSync(join(PEERS_DIR, 'node_modules', name, 'package.json')),
  );
  if (missing.length === 0) return;
  console.error(`installing the benchmark peers (${missing.join(', ')}) into tools/bench/peers ...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', PEERS_DIR, '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm ci --prefix ${PEERS_DIR} failed (exit ${result.status})`);
}
