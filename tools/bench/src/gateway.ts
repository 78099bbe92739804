/**
 * Gateway benchmark: one federated query with fleet-core data three levels deep and a
 * page of 50 devices, run in one process three ways:
 *   1. straight to the fleet-core subgraph,
 *   2. through the gateway, uncached (a login that never turned the query cache on),
 *   3. through the gateway, cached (a login that ran `cache(ttl: 3600)` first),
 * each with CONCURRENCY client loops for SECONDS seconds, in ROUNDS interleaved rounds (the
 * machine is shared: the ratios come from the same rounds). Prints requests per second and
 * p50/p99 per mode, and the ratios (goals: uncached >= 0.5 x direct, cached >= 5 x uncached).
 *
 *   npx tsx tools/bench/src/gateway.ts   (BENCH_SECONDS default 5, BENCH_CONCURRENCY 8, BENCH_ROUNDS 2;
 *                                         with REDIS_URL set, the cache and revocation list use Redis)
 */
import { performance } from 'node:perf_hooks';
import { postGraphQL } from '@fleetgraph/testing';
import { startBenchPlatform } from './harness';
import { login } from './load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const QUERY = `query Fleet {
  devices(pageSize: 50) {
    list {
      id serialNumber status lastConnectionAt
      owner { id fullName email }
      currentVehicle { id }
      groups(pageSize: 5) { list { id label } }
    }
  }
}`;

interface Result {
  requests: number;
  seconds: number;
  latencies: number[];
}

/** The subgraph secret of the platform under test (a direct call needs it; the gateway ignores it). */
let directHeaders: Record<string, string> = {};

async function run(url: string, token: string, cache?: 'hit' | 'bypass'): Promise<Result> {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const response = await postGraphQL(url, QUERY, { token, headers: directHeaders });
        if (response.errors || !response.data)
          throw new Error(`${url}: ${JSON.stringify(response.errors ?? response)}`);
        // Each mode measures what it says: every cached request a hit, every uncached one a bypass.
        if (cache && response.headers['x-fleetgraph-cache'] !== cache)
          throw new Error(`expected cache ${cache}, got ${String(response.headers['x-fleetgraph-cache'])}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { requests: latencies.length, seconds: (performance.now() - start) / 1000, latencies };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

function summary(results: Result[]) {
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
  return {
    rps: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
  };
}

const bench = await startBenchPlatform({ RATE_LIMIT_PER_MINUTE: '0' });
try {
  const { platform, token: uncachedToken } = bench;
  directHeaders = platform.subgraphHeaders;
  const cachedToken = await login(platform.urls.sso);
  const enabled = await postGraphQL(platform.urls.graphql, '{ cache(ttl: 3600) { ttl } }', {
    token: cachedToken,
  });
  if (enabled.errors) throw new Error(JSON.stringify(enabled.errors));

  const modes = {
    direct: () => run(platform.urls.subgraphs['fleet-core']!, uncachedToken),
    uncached: () => run(platform.urls.graphql, uncachedToken, 'bypass'),
    cached: () => run(platform.urls.graphql, cachedToken, 'hit'),
  };
  // Same answer three ways (the cached one once stored); also warms every path.
  const answers = await Promise.all([
    postGraphQL(platform.urls.subgraphs['fleet-core']!, QUERY, {
      token: uncachedToken,
      headers: directHeaders,
    }),
    postGraphQL(platform.urls.graphql, QUERY, { token: uncachedToken }),
    postGraphQL(platform.urls.graphql, QUERY, { token: cachedToken }),
  ]);
  const [d, u, c] = answers.map((a) => JSON.stringify(a.data));
  if (d !== u || u !== c) throw new Error('the three ways do not give the same answer');
  const devices = (answers[0]!.data as { devices: { list: unknown[] } }).devices.list.length;
  if (devices !== 50) throw new Error(`expected 50 devices per answer, got ${devices}`);
  console.log(
    `gateway benchmark: devices(pageSize: 50) with owner, currentVehicle, groups (${devices} devices per answer);`,
  );
  console.log(
    `${ROUNDS} interleaved rounds x ${SECONDS} s per mode, concurrency ${CONCURRENCY}, one process; ` +
      `cache and revocation list ${process.env.REDIS_URL ? 'in Redis (REDIS_URL)' : 'in memory (set REDIS_URL for Redis)'}`,
  );
  const results: Record<keyof typeof modes, Result[]> = { direct: [], uncached: [], cached: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const name of Object.keys(modes) as (keyof typeof modes)[]) results[name].push(await modes[name]());

  const rows = Object.fromEntries(
    (Object.keys(results) as (keyof typeof modes)[]).map((name) => [name, summary(results[name])]),
  ) as Record<keyof typeof modes, ReturnType<typeof summary>>;
  const labels = {
    direct: 'straight to fleet-core',
    uncached: 'through the gateway, uncached',
    cached: 'through the gateway, cached',
  };
  for (const name of Object.keys(rows) as (keyof typeof modes)[]) {
    const row = rows[name];
    console.log(
      `${labels[name].padEnd(32)} ${row.rps.toFixed(0).padStart(6)} req/s   p50 ${row.p50.toFixed(2).padStart(7)} ms   p99 ${row.p99.toFixed(2).padStart(7)} ms   (${row.requests} requests)`,
    );
  }
  console.log(
    `uncached gateway / direct = ${(rows.uncached.rps / rows.direct.rps).toFixed(2)} (goal >= 0.5)   ` +
      `cached / uncached = ${(rows.cached.rps / rows.uncached.rps).toFixed(1)}x (goal >= 5x)`,
  );
} finally {
  await bench.close();
}
