/** Starts an app's main.ts as its own process and reads its resident memory, for honest per-app figures. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, SERVICE_NODE_FLAGS } from '@fleetgraph/service-kit';

export async function standaloneApp(mainPath: string, env: Record<string, string>, readyUrl: string) {
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, '--import', 'tsx', join(repoRoot, mainPath)],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${mainPath} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    rssMiB(): number {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
