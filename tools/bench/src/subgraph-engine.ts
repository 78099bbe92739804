/**
 * The subgraph engine (issue 15): what a deep page costs a subgraph against its cheapest query
 * (fleet-core by default; BENCH_SUBGRAPH for dvir, mobility, maintenance),
 * called directly (no gateway), with the subgraph in its own process as deployed. For each query
 * shape, in interleaved rounds: requests per second at CONCURRENCY connections, the subgraph
 * process's CPU per request (from /proc), and PostgreSQL's time per request (planning +
 * execution) and statements per request, from pg_stat_statements of the benchmark's database.
 * The ratio that matters is deep ÷ small in req/s (goal >= 0.33: a page of 50 devices with three
 * relations costs at most three `account { fullName }`).
 *
 *   npx tsx tools/bench/src/subgraph-engine.ts
 *     BENCH_SECONDS (3) per cell, BENCH_ROUNDS (3), BENCH_CONCURRENCY (20), BENCH_TOP (5) statements,
 *     BENCH_SHAPES (small,deep; fleet-core also has trips, mobility transactions), BENCH_SUBGRAPH (fleet-core; or dvir, mobility, maintenance); with BENCH_PROFILE_DIR (and BENCH_PROFILE_MATCH=fleet-core) the
 *     processes write CPU profiles (cpu-profile.mjs; read with cpu-profile-top.mjs);
 *     BENCH_SCALE (1) seeds the demo at that scale first (`npm run seed -- --scale N`'s data: at 100,
 *     7,500 devices of which the demo login sees 6,000; about 7 minutes to seed)
 *     PostgreSQL figures need pg_stat_statements: the embedded server (no DATABASE_URL) loads it;
 *     on your own server, add it to shared_preload_libraries, or the bench prints req/s and CPU only.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { Pool } from 'undici';
import { repoRoot } from '@fleetgraph/service-kit';
import { migrateAll, seedDemoData } from '@fleetgraph/seed';
import { loadSubgraphManifests } from '@fleetgraph/subgraph-kit';
import { freePort } from '@fleetgraph/testing';
import { startPlatform } from '@fleetgraph/start';
import { benchDatabase } from './database';
import { cpuMs, drive, login, loopback, peakRssMb, type Target } from './load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const TOP = Number(process.env.BENCH_TOP ?? 5);

/**
 * Per subgraph: its cheapest query, a page of 50 with its relations, and other shapes run only
 * when BENCH_SHAPES names them.
 */
const SUBGRAPH_SHAPES: Record<string, { small: string; deep: string } & Record<string, string>> = {
  'fleet-core': {
    small: 'query Me { account { fullName } }',
    deep: `query Devices { devices(pageSize: 50) { list {
      id status owner { fullName } currentVehicle { plate make model } groups { list { label } } } } }`,
    trips: `query Trips { devices(pageSize: 10) { list { id trips(pageSize: 50) { list {
      id startedAt durationSeconds distanceKm averageSpeedKmh vehicle { id } } } } } }`,
  },
  dvir: {
    small: 'query One { inspectionReports(pageSize: 1) { list { id } } }',
    deep: `query Reports { inspectionReports(pageSize: 50) { list {
      id status workflowStatus inspectionType startedAt vehicle { id }
      inspectionAnswers(locale: FR) { list { id result resultLabel itemName itemCategoryLabel } }
      defects { list { id status description outOfService } } } } }`,
  },
  mobility: {
    small: 'query One { mobilityTransactionAnomalies(pageSize: 1) { list { id } } }',
    deep: `query Anomalies { mobilityTransactionAnomalies(pageSize: 50) { list {
      id code severity detectedAt transactedAt locationCity } } }`,
    transactions: `query Transactions { mobilityTransactionAnomalies(pageSize: 50) { list {
      id code transaction { id transactedAt quantity netTotal currency anomaliesCount } } } }`,
  },
  maintenance: {
    small: 'query One { maintenanceUpcomings(pageSize: 1) { list { id } } }',
    deep: `query Upcoming { maintenanceUpcomings(pageSize: 50) { count list {
      id mileageDeadline remainingDistanceToDrive dateDeadline remainingDaysToDrive
      template { id system } vehicle { id } criticality { code criticality } } } }`,
  },
};
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SUBGRAPH = process.env.BENCH_SUBGRAPH ?? 'fleet-core';
const SHAPES = SUBGRAPH_SHAPES[SUBGRAPH];
if (!SHAPES) throw new Error(`BENCH_SUBGRAPH must be one of ${Object.keys(SUBGRAPH_SHAPES).join(', ')}`);
const SHAPE_NAMES = (process.env.BENCH_SHAPES?.split(',') ?? ['small', 'deep']).filter(
  (name) => name in SHAPES,
);

interface Cell {
  requests: number;
  seconds: number;
  cpuMs: number;
  pgMs: number;
  statements: number;
}

const database = await benchDatabase('bench_engine', { statementStatistics: true });
const admin = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
const statistics = await admin
  .raw('create extension if not exists pg_stat_statements')
  .then(() => admin.raw('select 1 from pg_stat_statements limit 1'))
  .then(
    () => true,
    () => false,
  );
const resetStatistics = () => (statistics ? admin.raw('select pg_stat_statements_reset()') : undefined);
async function databaseTime(): Promise<{ ms: number; calls: number }> {
  if (!statistics) return { ms: NaN, calls: NaN };
  const { rows } = await admin.raw(
    `select coalesce(sum(total_exec_time + total_plan_time), 0) as ms, coalesce(sum(calls), 0) as calls
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not like '%pg_stat_statements%'`,
  );
  return { ms: Number(rows[0].ms), calls: Number(rows[0].calls) };
}
async function topStatements(requests: number) {
  if (!statistics) return [];
  const { rows } = await admin.raw(
    `select calls, total_exec_time + total_plan_time as ms, total_plan_time as plan_ms, query
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not like '%pg_stat_statements%'
      order by ms desc limit ?`,
    [TOP],
  );
  return rows.map((r: { calls: string; ms: number; plan_ms: number; query: string }) => ({
    perRequest: Number(r.calls) / requests,
    msPerRequest: r.ms / requests,
    planShare: r.ms > 0 ? r.plan_ms / r.ms : 0,
    query: r.query.replace(/\s+/g, ' ').slice(0, 140),
  }));
}

if (SCALE > 1) {
  // The platform below finds the demo seeded and keeps it.
  const manifests = await loadSubgraphManifests();
  const seeder = knexFactory({ client: 'pg', connection: database.url });
  const started = Date.now();
  try {
    await migrateAll(seeder, manifests);
    await seedDemoData(seeder, manifests, { scale: SCALE });
  } finally {
    await seeder.destroy();
  }
  console.log(`seeded the demo at scale ${SCALE} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (process.env.BENCH_PROFILE_DIR) mkdirSync(process.env.BENCH_PROFILE_DIR, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-bench-'));
const ports: Record<string, number> = {};
for (const name of ['gateway', 'sso', ...(await loadSubgraphManifests()).map((s) => s.name)])
  ports[name] = await freePort();
const pids = new Map<string, number>();
const platform = await startPlatform({
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    ...(process.env.BENCH_PROFILE_DIR
      ? { NODE_OPTIONS: `--import ${join(repoRoot, 'tools/bench/src/cpu-profile.mjs')}` }
      : {}),
  },
  dataDir: dir,
  ports,
  processes: true,
  log: (line) => {
    const match = /^(\S+): process (\d+)$/.exec(line);
    if (match) pids.set(match[1]!, Number(match[2]));
  },
});
const url = loopback(platform.urls.subgraphs[SUBGRAPH]!);
const pool = new Pool(url.origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 30_000 });
try {
  const pid = pids.get(SUBGRAPH);
  if (!pid) throw new Error(`${SUBGRAPH} process id not reported by the platform`);
  const token = await login(platform.urls.sso);
  const target: Target = { pool, path: url.pathname, headers: platform.subgraphHeaders };
  const bodies = Object.fromEntries(
    Object.entries(SHAPES).map(([name, query]) => [name, JSON.stringify({ query })]),
  );
  // Warm-up (JIT, connection pool, caches), unmeasured.
  for (const name of SHAPE_NAMES) await drive(target, [token], [bodies[name]!], 1, CONCURRENCY);

  const cells: Record<string, Cell[]> = Object.fromEntries(SHAPE_NAMES.map((name) => [name, []]));
  let deepTop: Awaited<ReturnType<typeof topStatements>> = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const name of SHAPE_NAMES) {
      await resetStatistics();
      const cpuBefore = cpuMs(pid);
      const { requests, seconds } = await drive(target, [token], [bodies[name]!], SECONDS, CONCURRENCY);
      const used = cpuMs(pid) - cpuBefore;
      const pg = await databaseTime();
      cells[name]!.push({ requests, seconds, cpuMs: used, pgMs: pg.ms, statements: pg.calls });
      if (name === 'deep' && round === ROUNDS - 1) deepTop = await topStatements(requests);
    }

  const total = (name: string) => {
    const list = cells[name]!;
    const sum = (pick: (c: Cell) => number) => list.reduce((s, c) => s + pick(c), 0);
    const requests = sum((c) => c.requests);
    return {
      rps: requests / sum((c) => c.seconds),
      cpu: sum((c) => c.cpuMs) / requests,
      pg: sum((c) => c.pgMs) / requests,
      statements: sum((c) => c.statements) / requests,
      requests,
    };
  };
  console.log(
    `subgraph engine benchmark: ${SUBGRAPH} called directly at demo scale ${SCALE}, ${ROUNDS} interleaved rounds x ${SECONDS} s per shape, ` +
      `${CONCURRENCY} connections; ${SUBGRAPH} in its own process` +
      (statistics
        ? '; PostgreSQL time from pg_stat_statements (plan + execution)'
        : '; no pg_stat_statements'),
  );
  const rows: Record<string, ReturnType<typeof total>> = Object.fromEntries(
    SHAPE_NAMES.map((name) => [name, total(name)]),
  );
  for (const name of SHAPE_NAMES) {
    const r = rows[name]!;
    console.log(
      `${name.padEnd(6)} ${r.rps.toFixed(0).padStart(6)} req/s   subgraph CPU ${r.cpu.toFixed(2).padStart(6)} ms/req   ` +
        `PostgreSQL ${r.pg.toFixed(2).padStart(6)} ms/req in ${r.statements.toFixed(2)} statements   (${r.requests} requests)`,
    );
  }
  if (rows.deep && rows.small)
    console.log(
      `deep / small = ${(rows.deep.rps / rows.small.rps).toFixed(2)} (goal >= 0.33)   ` +
        `deep costs ${(rows.deep.cpu / rows.small.cpu).toFixed(1)}x the CPU and ${(rows.deep.pg / rows.small.pg).toFixed(1)}x the PostgreSQL time of small`,
    );
  console.log(`${SUBGRAPH} peak resident memory: ${peakRssMb(pid).toFixed(0)} MB`);
  if (deepTop.length > 0) {
    console.log('deep: statements by PostgreSQL time (last round)');
    for (const s of deepTop)
      console.log(
        `  ${s.perRequest.toFixed(2)}/req ${s.msPerRequest.toFixed(3)} ms/req (plan ${(s.planShare * 100).toFixed(0)}%)  ${s.query}`,
      );
  }
} finally {
  await pool.close();
  await platform.close();
  await admin.destroy();
  rmSync(dir, { recursive: true, force: true });
  await database.close();
}
