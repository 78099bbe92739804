/**
 * The subgraph engine: what a deep page costs a subgraph against its cheapest query
 * (fleet-core by default; BENCH_SUBGRAPH for dvir, mobility, maintenance),
 * called directly (no gateway), with the subgraph in its own process as deployed. For each query
 * shape, in interleaved rounds: requests per second at CONCURRENCY connections, the subgraph
 * process's CPU per request (from /proc), and PostgreSQL's time per request (planning +
 * execution) and statements per request, from pg_stat_statements of the benchmark's database.
 * The ratio that matters is deep ÷ small in req/s (goal >= 0.33: a page of 50 devices with three
 * relations costs at most three `account { fullName }`).
 *
 * Beside the subgraph, interleaved in the same rounds, its floor (floor-peer.ts, BENCH_FLOOR=false
 * leaves it out): a bare node:http process that replays, per request, the very statements one
 * request of each shape sent (recorded through the subgraph built in this process), named, wave
 * after wave, and answers the rows as JSON. No subgraph sending those statements can do better
 * than its floor, so the floor's deep / small bounds the engine's on this machine, and
 * subgraph / floor per shape is the engine's own share. BENCH_FLOOR_PLAN=<file> keeps the recorded
 * statements (JSON: shape -> waves -> { text, values }), e.g. to EXPLAIN them.
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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import knexFactory from 'knex';
import { Pool } from 'undici';
import { createRevocationList } from '@fleetgraph/auth';
import { DEFAULT_POOL_MAX } from '@fleetgraph/db';
import { repoRoot } from '@fleetgraph/service-kit';
import { migrateAll, seedDemoData } from '@fleetgraph/seed';
import { loadSubgraphManifests, subgraphManifest } from '@fleetgraph/subgraphs';
import { createTestIssuer, freePort } from '@fleetgraph/testing';
import { startPlatform } from '@fleetgraph/start';
import { benchDatabase } from './database';
import { cpuMs, drive, login, loopback, peakRssMb, type Target } from './load';
import { startPeer, type Peer } from './peer-process';
import { recordStatements, type RecordedStatement } from './statement-recorder';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const TOP = Number(process.env.BENCH_TOP ?? 5);
const FLOOR = process.env.BENCH_FLOOR !== 'false';
/** Recordings of each shape's statements; the floor replays the one in the fewest waves. */
const RECORDINGS = 5;

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

interface Totals {
  rps: number;
  cpu: number;
  pg: number;
  statements: number;
  requests: number;
}

/**
 * The statements one request of each shape sends, recorded through the subgraph built in this
 * process on the benchmark's database, for the same user as `token` (re-signed by a test issuer
 * this app trusts); each shape is sent twice first, so connections are open and statements named,
 * then recorded RECORDINGS times.
 */
async function recordPlans(
  databaseUrl: string,
  token: string,
  bodies: Record<string, string>,
): Promise<Record<string, RecordedStatement[][]>> {
  const manifest = await subgraphManifest(SUBGRAPH);
  const config = manifest.loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const issuer = await createTestIssuer(config.issuer, config.audience);
  const claims = decodeJwt(token) as {
    scope: string;
    user: { uid: string; email: string; full_name: string };
  };
  const sameUser = await issuer.token(
    { uid: claims.user.uid, email: claims.user.email, fullName: claims.user.full_name },
    { scope: claims.scope },
  );
  const app = await manifest.buildApp(
    { ...config, databaseUrl },
    { jwks: issuer.jwks, migrate: false, revocations: createRevocationList({}) },
  );
  try {
    const plans: Record<string, RecordedStatement[][]> = {};
    for (const name of SHAPE_NAMES) {
      const send = async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${sameUser}` },
          payload: bodies[name]!,
        });
        if (response.statusCode !== 200 || response.body.includes('"errors"'))
          throw new Error(`recording ${name}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      };
      await send();
      await send();
      // Whether a lookup leaves before or after the page's answer is timing (the devices page
      // recorded as 1 + 3 or 1 + 2 + 1 waves): the floor keeps the tightest of a few recordings,
      // so it never waits in more waves than the subgraph can.
      const recordings: RecordedStatement[][][] = [];
      for (let i = 0; i < RECORDINGS; i++) recordings.push(await recordStatements(send));
      plans[name] = recordings.reduce((best, next) => (next.length < best.length ? next : best));
    }
    return plans;
  } finally {
    await app.close();
  }
}

/** The floor (floor-peer.ts) in its own process, replaying `plans` on the benchmark's database. */
function startFloor(plans: Record<string, RecordedStatement[][]>, databaseUrl: string, token: string) {
  const file = process.env.BENCH_FLOOR_PLAN ?? join(dir, 'floor-plan.json');
  writeFileSync(file, JSON.stringify(plans));
  const waves = (name: string) => plans[name]!.map((wave) => wave.length).join(' + ');
  for (const name of SHAPE_NAMES) console.log(`floor ${name}: statements per request by wave ${waves(name)}`);
  return startPeer('floor-peer.ts', 'floor', token, (port) => ({
    FLOOR_PORT: String(port),
    FLOOR_DATABASE_URL: databaseUrl,
    FLOOR_PLAN_FILE: file,
    // The subgraph's pool size (it keeps createKnex's default).
    FLOOR_POOL: String(DEFAULT_POOL_MAX),
  }));
}

/** The floor's figures, its deep / small (the bound), and the subgraph's share of its floor. */
function printFloor(subgraph: Record<string, Totals>, floor: Record<string, Totals>) {
  for (const name of SHAPE_NAMES) {
    const f = floor[name]!;
    console.log(
      `floor ${name.padEnd(6)} ${f.rps.toFixed(0).padStart(6)} req/s   floor CPU ${f.cpu.toFixed(2).padStart(6)} ms/req   ` +
        `PostgreSQL ${f.pg.toFixed(2).padStart(6)} ms/req in ${f.statements.toFixed(2)} statements   ` +
        `subgraph / floor ${(subgraph[name]!.rps / f.rps).toFixed(2)}`,
    );
  }
  if (floor.deep && floor.small)
    console.log(
      `floor deep / small = ${(floor.deep.rps / floor.small.rps).toFixed(2)}: no subgraph sending these statements prints more here`,
    );
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
let floor: { peer: Peer; pool: Pool } | undefined;
try {
  const pid = pids.get(SUBGRAPH);
  if (!pid) throw new Error(`${SUBGRAPH} process id not reported by the platform`);
  const token = await login(platform.urls.sso);
  const target: Target = { pool, path: url.pathname, headers: platform.subgraphHeaders };
  const bodies = Object.fromEntries(
    Object.entries(SHAPES).map(([name, query]) => [name, JSON.stringify({ query })]),
  );
  if (FLOOR) {
    const peer = await startFloor(await recordPlans(database.url, token, bodies), database.url, token);
    const origin = new URL(peer.url).origin;
    floor = {
      peer,
      pool: new Pool(origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 30_000 }),
    };
  }
  const floorTarget = (name: string): Target => ({ pool: floor!.pool, path: `/${name}`, headers: {} });
  // Warm-up (JIT, connection pool, caches), unmeasured.
  for (const name of SHAPE_NAMES) {
    await drive(target, [token], [bodies[name]!], 1, CONCURRENCY);
    if (floor) await drive(floorTarget(name), [token], [bodies[name]!], 1, CONCURRENCY);
  }

  const cells: Record<string, Cell[]> = Object.fromEntries(SHAPE_NAMES.map((name) => [name, []]));
  const floorCells: Record<string, Cell[]> = Object.fromEntries(SHAPE_NAMES.map((name) => [name, []]));
  let deepTop: Awaited<ReturnType<typeof topStatements>> = [];
  const measure = async (to: Target, processId: number, body: string): Promise<Cell> => {
    await resetStatistics();
    const cpuBefore = cpuMs(processId);
    const { requests, seconds } = await drive(to, [token], [body], SECONDS, CONCURRENCY);
    const used = cpuMs(processId) - cpuBefore;
    const pg = await databaseTime();
    return { requests, seconds, cpuMs: used, pgMs: pg.ms, statements: pg.calls };
  };
  for (let round = 0; round < ROUNDS; round++)
    for (const name of SHAPE_NAMES) {
      const cell = await measure(target, pid, bodies[name]!);
      cells[name]!.push(cell);
      if (name === 'deep' && round === ROUNDS - 1) deepTop = await topStatements(cell.requests);
      if (floor)
        floorCells[name]!.push(await measure(floorTarget(name), floor.peer.child.pid!, bodies[name]!));
    }

  const total = (name: string, from = cells) => {
    const list = from[name]!;
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
  const rows: Record<string, Totals> = Object.fromEntries(SHAPE_NAMES.map((name) => [name, total(name)]));
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
  if (floor) printFloor(rows, Object.fromEntries(SHAPE_NAMES.map((name) => [name, total(name, floorCells)])));
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
  await floor?.pool.close();
  await floor?.peer.stop();
  await platform.close();
  await admin.destroy();
  rmSync(dir, { recursive: true, force: true });
  await database.close();
}
