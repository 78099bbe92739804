/**
 * The benchmarks' peers and bounds in their own processes (hive-peer.ts, ceiling-peer.ts,
 * relay-peer.ts, floor-peer.ts, a baseline gateway): started on a free port, ready once they
 * answer a GraphQL request, stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/testing';

export type Peer = { url: string; child: ChildProcess; stop(): Promise<void> };

/**
 * A peer script in its own process, on a free port; ready once it answers a query. `script` is a
 * path under tools/bench/src, or a peers/ runner (peers.ts peerScript) given as an absolute path.
 */
export async function startPeer(
  script: string,
  name: string,
  token: string,
  env: (port: number) => Record<string, string>,
): Promise<Peer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--no-warnings',
      '--import',
      'tsx',
      isAbsolute(script) ? script : join(repoRoot, 'tools/bench/src', script),
    ],
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
  const stop = stopper(child, 'SIGTERM');
  const url = `http://127.0.0.1:${port}/graphql`;
  await waitUntilReady(child, name, async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    return response.ok;
  });
  return { url, child, stop };
}

/**
 * Ends `child` with `signal` (SIGINT lets node write a CPU profile on its way out) and waits for
 * its exit; made when the child starts, so an exit before `stop` is still seen.
 */
export function stopper(child: ChildProcess, signal: NodeJS.Signals): () => Promise<void> {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return async () => {
    if (child.exitCode === null) child.kill(signal);
    await exited;
  };
}

/** Polls `probe` every 200 ms until it answers true; throws if the child exits first or after 60 s. */
export async function waitUntilReady(
  child: ChildProcess,
  name: string,
  probe: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited before it was ready`);
    try {
      if (await probe()) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready within 60 s`);
    await delay(200);
  }
}
