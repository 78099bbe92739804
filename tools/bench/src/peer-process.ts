/**
 * The benchmarks' peers and bounds in their own processes (hive-peer.ts, ceiling-peer.ts,
 * relay-peer.ts, floor-peer.ts, a baseline gateway): started on a free port, ready once they
 * answer a GraphQL request, stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/testing';

export type Peer = { url: string; child: ChildProcess; stop(): Promise<void> };

/** A peer script of tools/bench/src in its own process, on a free port; ready once it answers a query. */
export async function startPeer(
  script: string,
  name: string,
  token: string,
  env: (port: number) => Record<string, string>,
): Promise<Peer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--no-warnings', '--import', 'tsx', join(repoRoot, 'tools/bench/src', script)],
    { env: { ...process.env, ...env(port) }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return readyChild(child, port, token, name);
}

/** A gateway started in its own process, once it answers GraphQL on `port`; `stop` ends it. */
export async function readyChild(
  child: ChildProcess,
  port: number,
  token: string,
  name: string,
): Promise<Peer> {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}/graphql`;
  await waitForGraphQL(url, token, child, name);
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitForGraphQL(url: string, token: string, child: ChildProcess, name: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited before it was ready`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready within 60 s`);
    await delay(200);
  }
}
