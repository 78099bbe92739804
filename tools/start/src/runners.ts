/**
 * How a service of the platform runs: inside this process (the default: one Node process, one
 * shared in-memory revocation list), or as its own child process started from its `main.ts`
 * exactly as docker-compose starts it (`npm start -- --processes`), so one service can be killed,
 * restarted or profiled alone and the platform uses every core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { SERVICE_NODE_FLAGS } from '@fleetgraph/service-kit';

export type Env = Record<string, string | undefined>;

export interface RunningService {
  name: string;
  /** the Fastify app when in process (tests reach inside it), else undefined */
  app?: FastifyInstance;
  /** the child process when started as one */
  child?: ChildProcess;
  close(): Promise<void>;
}

export interface ServiceSpec {
  name: string;
  port: number;
  /** full environment of the service (its port variable included) */
  env: Env;
  /** in-process: builds the app from that environment */
  build(env: Env): Promise<FastifyInstance>;
  /** its own process: the module to run (`apps/<name>/src/main.ts`) */
  entry: string;
}

export interface Runner {
  start(spec: ServiceSpec, host: string): Promise<RunningService>;
}

export const inProcessRunner: Runner = {
  async start(spec, host) {
    const app = await spec.build(spec.env);
    await app.listen({ port: spec.port, host });
    return { name: spec.name, app, close: () => app.close() };
  },
};

/** Child processes (`node --import tsx <entry>`), ready when `/healthz` answers 200. */
export function processRunner(
  options: { readyTimeoutMs?: number; log?: (line: string) => void } = {},
): Runner {
  return {
    async start(spec, host) {
      const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', spec.entry], {
        env: spec.env as NodeJS.ProcessEnv,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await waitUntilHealthy(
        `http://${host}:${spec.port}/healthz`,
        exited,
        options.readyTimeoutMs ?? 120_000,
      );
      options.log?.(`${spec.name}: process ${child.pid}`);
      return { name: spec.name, child, close: () => stopChild(child, exited) };
    },
  };
}

async function waitUntilHealthy(
  url: string,
  exited: Promise<number | null>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`${url}: the process exited (code ${exitCode}) before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await delay(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(forced);
}
