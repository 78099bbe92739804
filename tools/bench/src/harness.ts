/**
 * Benchmark harness: boots the real platform (SSO, subgraphs, gateway) on free ports against a
 * throwaway database, signs in the demo user, and measures sequential request latencies.
 * The database server is DATABASE_URL, else an embedded one started here.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startPlatform, type Platform } from '@fleetgraph/start';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { freePort, postGraphQL, WHOLE_SCHEMA_LIMITS } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { benchRedisEnv, deleteBenchRedisKeys } from './redis-scope';
import { login } from './load';

export interface BenchPlatform {
  platform: Platform;
  token: string;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * `env` adds to the platform's environment (e.g. RATE_LIMIT_PER_MINUTE=0 for load tests); REDIS_URL
 * is passed on when set, so a benchmark measures the Redis-backed paths too.
 */
export async function startBenchPlatform(
  env: Record<string, string> = {},
  options: { processes?: boolean } = {},
): Promise<BenchPlatform> {
  const database = await benchDatabase('bench');
  const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-bench-'));
  const platform = await startPlatform({
    env: {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      ...benchRedisEnv(),
      // SUBGRAPH_DEDUP=false measures the gateway without in-flight collapsing.
      ...(process.env.SUBGRAPH_DEDUP ? { SUBGRAPH_DEDUP: process.env.SUBGRAPH_DEDUP } : {}),
      ...env,
    },
    dataDir: dir,
    ports: await freePorts(),
    ...(options.processes ? { processes: true } : {}),
  });
  const token = await login(platform.urls.sso);
  return {
    platform,
    token,
    databaseUrl: database.url,
    async close() {
      await platform.close();
      await deleteBenchRedisKeys();
      rmSync(dir, { recursive: true, force: true });
      await database.close();
    },
  };
}

/**
 * The platform on a database seeded with `npm run seed -- --scale N` (not seeded again), with the
 * gateway's limits lifted for whole-type selections, as the demo user. One data directory per
 * scaled database, kept between runs: the SSO seals its signing keys in the database with a key
 * kept there, so a new directory could not open them.
 */
export async function startScalePlatform(url: string): Promise<Omit<BenchPlatform, 'databaseUrl'>> {
  const dir = join(tmpdir(), `fleetgraph-scale-${createHash('sha1').update(url).digest('hex').slice(0, 12)}`);
  mkdirSync(dir, { recursive: true });
  const platform = await startPlatform({
    env: { DATABASE_URL: url, LOG_LEVEL: 'silent', ...WHOLE_SCHEMA_LIMITS },
    dataDir: dir,
    ports: await freePorts(),
    seed: false,
  });
  return { platform, token: await login(platform.urls.sso), close: () => platform.close() };
}

/** A free port for each service of the platform. */
async function freePorts(): Promise<Record<string, number>> {
  const ports: Record<string, number> = {};
  for (const name of ['gateway', 'sso', ...(await loadSubgraphManifests()).map((s) => s.name)])
    ports[name] = await freePort();
  return ports;
}

export interface Stats {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Runs `run` n times one after the other (after `warmup` unmeasured runs) and returns latency stats in ms. */
export async function measure(
  n: number,
  run: (i: number) => Promise<void>,
  warmup = Math.min(20, n),
): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    n,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / n,
  };
}

/** A GraphQL call that fails loudly: a benchmark of error responses measures nothing. */
export function graphqlCall(url: string, token: string, headers: Record<string, string> = {}) {
  return async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await postGraphQL(url, query, { token, variables, headers });
    if (res.errors) throw new Error(`${url}: ${JSON.stringify(res.errors)}`);
    return res.data;
  };
}

export function printRow(label: string, stats: Stats, extra = ''): void {
  console.log(
    `${label.padEnd(34)} n=${String(stats.n).padEnd(5)} p50 ${stats.p50.toFixed(2).padStart(8)} ms   p99 ${stats.p99.toFixed(2).padStart(8)} ms${extra}`,
  );
}
