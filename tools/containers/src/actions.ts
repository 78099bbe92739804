/** What `npm run containers -- build | up` do, shared with the checks. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';
import { banner } from '@fleetgraph/start';
import { compose, ensureSecrets, render, run, urls, waitForQuery } from './platform';

const log = (line: string) => console.error(`[containers] ${line}`);

function imageExists(name: string): boolean {
  try {
    execFileSync('docker', ['image', 'inspect', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function build(): Promise<void> {
  await run('bash', [join(repoRoot, 'tools/containers/build-images.sh')]);
}

export async function up(options: { build?: boolean } = {}): Promise<number> {
  await render();
  await ensureSecrets();
  if (options.build || !imageExists('fleetgraph/platform')) await build();
  const started = Date.now();
  await compose(['up', '-d', '--remove-orphans']);
  const waited = await waitForQuery(300_000, log);
  console.log(
    banner({ urls, embeddedDatabase: false }).replace(
      'Ctrl-C stops everything; data is kept for the next start.',
      '`npm run containers -- down` stops everything; data is kept in volumes for the next up.',
    ),
  );
  log(
    `a query answered through the balancer ${((Date.now() - started) / 1000).toFixed(1)} s after up (${waited} ms of waiting)`,
  );
  return Date.now() - started;
}
