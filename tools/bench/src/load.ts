/**
 * Load primitives shared by the benchmarks that drive a service over keep-alive connections:
 * a checked request on an undici pool, a closed-loop driver, and the demo login.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';

export interface Target {
  pool: Pool;
  path: string;
  headers: Record<string, string>;
  /** The x-fleetgraph-cache answer every request must carry (the gateway's modes). */
  cache?: 'hit' | 'bypass';
}

/** `localhost` URLs on 127.0.0.1 (undici would otherwise try ::1 first). */
export const loopback = (url: string) => new URL(url.replace('//localhost:', '//127.0.0.1:'));

/** Answers of a cached target that were misses, by target pool (reported by the benchmark). */
export const unexpectedMisses = new Map<Pool, number>();

/** One request, checked: HTTP 200, no GraphQL errors, and the cache outcome the target claims. */
export async function send(target: Target, token: string, body: string): Promise<string> {
  const response = await target.pool.request({
    path: target.path,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      authorization: `Bearer ${token}`,
      ...target.headers,
    },
    body,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200 || text.includes('"errors"'))
    throw new Error(`${target.path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  const outcome = String(response.headers['x-fleetgraph-cache']);
  if (target.cache && outcome !== target.cache) {
    // A miss while Redis is slow (its commands time out under load) is the gateway bypassing
    // the cache as designed: counted and reported, not fatal; anything else is a bug.
    if (target.cache !== 'hit' || outcome !== 'miss')
      throw new Error(`${target.path}: expected cache ${target.cache}, got ${outcome}`);
    unexpectedMisses.set(target.pool, (unexpectedMisses.get(target.pool) ?? 0) + 1);
  }
  return text;
}

/**
 * CPU time (user + system) a process has used so far, in ms (Linux /proc, clock ticks of 10 ms;
 * NaN elsewhere). Per request, it measures what a request costs a process even on a machine whose
 * other work makes throughput noisy.
 */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The process's peak resident memory in MB (VmHWM from /proc), NaN when unknown. */
export function peakRssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * `concurrency` closed loops for `seconds`: loop i sends with token i mod tokens, cycling the
 * bodies from its own offset. Returns the requests made and the seconds they took.
 */
export async function drive(
  target: Target,
  tokens: string[],
  bodies: string[],
  seconds: number,
  concurrency: number,
): Promise<{ requests: number; seconds: number }> {
  let requests = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      const token = tokens[i % tokens.length]!;
      let k = i;
      while (performance.now() < deadline) {
        await send(target, token, bodies[k++ % bodies.length]!);
        requests++;
      }
    }),
  );
  return { requests, seconds: (performance.now() - start) / 1000 };
}

/** The demo user's access token (password grant). */
export async function login(sso: string): Promise<string> {
  const response = await fetch(`${sso}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token;
}
