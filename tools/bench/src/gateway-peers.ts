/**
 * The gateway side by side with its peer: Fleetgraph's gateway (uncached and cached),
 * Hive Gateway (@graphql-hive/gateway, as installed: its defaults, and with its in-flight
 * deduplication off) and the subgraph called directly, on the same committed supergraph and the
 * same subgraphs with the demo data, interleaved in one run. Every service, and each Hive
 * Gateway, is its own process (as deployed); this process only sends the load, over undici pools
 * of CONCURRENCY keep-alive connections per target.
 *
 * Query shapes:
 *   small      `account { fullName }` (fleet-core)
 *   deep       the devices page: 50 devices with owner, current vehicle and groups (fleet-core)
 *   geodecode  a reverse geocoding of a point (geodecode)
 *   dvir       20 inspection reports with their answers in French and their defects (dvir)
 *   mobility   50 transaction anomalies (mobility)
 *   maintenance  50 items of upcoming work with template and criticality (maintenance)
 * Traffic shapes:
 *   one        one login repeating one query (the best case for collapsing identical calls)
 *   many       LOGINS logins, each connection its own, with varied queries (nothing to collapse)
 * The `ceiling` mode (ceiling-peer.ts) answers each repeated request with stored bytes and does
 * nothing else: no GraphQL engine can answer faster here, so `ceil/unc` is the highest
 * `cached/unc` any query cache could reach with this machine and this load generator.
 * The `relay` mode (relay-peer.ts) relays each request's bytes to the subgraph and the answer's
 * bytes back and does nothing else: any gateway pays at least its two HTTP hops, so
 * `relay/direct` is the highest `unc/direct` any gateway could reach here.
 * Two tables: requests per second (and their ratios), and CPU ms per request of the process that
 * answers (read from /proc around each cell: what a request costs, even when other work on the
 * machine makes throughput noisy).
 * The gateway's per-user rate limit is configured high enough not to throttle the benchmark
 * (RATE_LIMIT_PER_MINUTE); its code runs as in production.
 *
 *   npx tsx tools/bench/src/gateway-peers.ts
 *     BENCH_SECONDS (3) per cell, BENCH_ROUNDS (2), BENCH_CONCURRENCY (20), BENCH_LOGINS (20),
 *     BENCH_SHAPES (small,deep,geodecode,dvir,mobility,maintenance), BENCH_TRAFFIC (one,many),
 *     BENCH_MODES (direct,uncached,cached,ceiling,relay,hive,hive-nodedup),
 *     BENCH_PROFILE_DIR: the processes whose entry path contains BENCH_PROFILE_MATCH (default: all)
 *     write a V8 CPU profile there when they exit (cpu-profile.ts; read with cpu-profile-top.ts);
 *     REDIS_URL: the gateway's cache (under a prefix of the run's own, deleted when it ends) and
 *     revocation list in Redis (else in memory);
 *     BENCH_BASELINE: another checkout of the repository (e.g. `git worktree add /tmp/base HEAD~3`,
 *     with node_modules): its gateway runs beside ours on the same subgraphs, as the modes
 *     base-uncached and base-cached, so a change to the gateway is measured before/after in one
 *     interleaved run (add them to BENCH_MODES; they are off unless BENCH_BASELINE is set).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { GATEWAY_SECRET_HEADER } from '@fleetgraph/auth';
import { repoRoot, SERVICE_NODE_FLAGS } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/testing';
import { startPlatform } from '@fleetgraph/start';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { benchDatabase } from './database';
import { benchRedisEnv, deleteBenchRedisKeys } from './redis-scope';
import { CITY_POINTS } from './geo-points';
import { readyChild, startPeer, type Peer } from './peer-process';
import { peerScript } from './peers';
import { cpuMs, drive as driveLoops, login, loopback, send, unexpectedMisses, type Target } from './load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const LOGINS = Number(process.env.BENCH_LOGINS ?? 20);
const list = (value: string | undefined, all: string[]) =>
  value ? value.split(',').filter((v) => all.includes(v)) : all;
const SHAPES = list(process.env.BENCH_SHAPES, [
  'small',
  'deep',
  'geodecode',
  'dvir',
  'mobility',
  'maintenance',
]);
const SHAPE_WIDTH = Math.max(10, ...SHAPES.map((shape) => shape.length + 1));
const TRAFFIC = list(process.env.BENCH_TRAFFIC, ['one', 'many']) as Traffic[];
const BASELINE = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const MODES = list(process.env.BENCH_MODES, [
  'direct',
  'uncached',
  'cached',
  'ceiling',
  'relay',
  'hive',
  'hive-nodedup',
  ...(BASELINE ? ['base-uncached', 'base-cached'] : []),
]).filter((mode) => BASELINE || !mode.startsWith('base-')) as Mode[];
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ? resolve(process.env.BENCH_PROFILE_DIR) : undefined;

type Traffic = 'one' | 'many';
type Mode =
  | 'direct'
  | 'uncached'
  | 'cached'
  | 'ceiling'
  | 'relay'
  | 'hive'
  | 'hive-nodedup'
  | 'base-uncached'
  | 'base-cached';

interface Variant {
  query: string;
  variables?: Record<string, unknown>;
}

interface Shape {
  name: string;
  label: string;
  /** The subgraph answering every field (the direct mode calls it). */
  subgraph: string;
  one: Variant;
  many: Variant[];
}

const deep = (pageSize: number, extra = '') => `query Devices { devices(pageSize: ${pageSize}) { list {
  id status${extra} owner { fullName } currentVehicle { plate make model } groups { list { label } } } } }`;
const GEODECODE = `query Geodecode($lat: Float, $lng: Float) {
  geodecode(lat: $lat, lng: $lng, radius: 500, maxResult: 3, lang: "de") {
    extent { minLat maxLat } elements { kind country countryCode city street houseNumber distance } } }`;
const POINTS = CITY_POINTS;
const reports = (pageSize: number, extra = '') => `query Reports { inspectionReports(pageSize: ${pageSize}) {
  list { id status${extra} inspectionType startedAt
    inspectionAnswers(locale: FR) { list { id result resultLabel itemName } }
    defects { list { id status outOfService } } } } }`;
const anomalies = (pageSize: number, extra = '') => `query Anomalies {
  mobilityTransactionAnomalies(pageSize: ${pageSize}) { list { id code severity${extra} detectedAt transactedAt locationCity } } }`;
const upcoming = (
  pageSize: number,
  extra = '',
) => `query Upcoming { maintenanceUpcomings(pageSize: ${pageSize}) {
  count list { id${extra} dateDeadline remainingDaysToDrive remainingDistanceToDrive template { id system } criticality { code } } } }`;

/**
 * A page shape: one login repeats the page of `size`; many logins vary it (one item fewer, one
 * field more, two fewer), so no two variants share a subgraph call or a cache entry.
 */
const pageShape = (
  name: string,
  label: string,
  subgraph: string,
  page: (size: number, extra?: string) => string,
  size: number,
  extraField: string,
): Shape => ({
  name,
  label,
  subgraph,
  one: { query: page(size) },
  many: [page(size), page(size - 1), page(size, ` ${extraField}`), page(size - 2)].map((query) => ({
    query,
  })),
});

const SHAPE_DEFS: Shape[] = [
  {
    name: 'small',
    label: 'account { fullName }',
    subgraph: 'fleet-core',
    one: { query: 'query Me { account { fullName } }' },
    many: [
      { query: 'query Me { account { fullName } }' },
      { query: 'query Me { account { id fullName } }' },
      { query: 'query Me { account { fullName email } }' },
      { query: 'query Me { account { fullName shortName } }' },
    ],
  },
  pageShape(
    'deep',
    'devices(pageSize: 50) { ... owner, currentVehicle, groups }',
    'fleet-core',
    deep,
    50,
    'lastConnectionAt',
  ),
  {
    name: 'geodecode',
    label: 'geodecode(lat, lng, radius: 500, maxResult: 3)',
    subgraph: 'geodecode',
    one: { query: GEODECODE, variables: { lat: POINTS[0]![0], lng: POINTS[0]![1] } },
    many: POINTS.map(([lat, lng]) => ({ query: GEODECODE, variables: { lat, lng } })),
  },
  pageShape(
    'dvir',
    'inspectionReports(pageSize: 20) { ... answers in French, defects }',
    'dvir',
    reports,
    20,
    'workflowStatus',
  ),
  pageShape(
    'mobility',
    'mobilityTransactionAnomalies(pageSize: 50)',
    'mobility',
    anomalies,
    50,
    'observedValue',
  ),
  pageShape(
    'maintenance',
    'maintenanceUpcomings(pageSize: 50) { ... template, criticality }',
    'maintenance',
    upcoming,
    50,
    'mileageDeadline',
  ),
];

/** CONCURRENCY loops for `seconds` (load.ts `drive`): requests per second and the requests sent. */
async function drive(target: Target, tokens: string[], bodies: string[], seconds: number) {
  const { requests, seconds: took } = await driveLoops(target, tokens, bodies, seconds, CONCURRENCY);
  return { rps: requests / took, requests };
}

/** Hive Gateway in its own process (hive-peer.ts). */
const startHive = (
  dedup: boolean,
  subgraphs: Record<string, string>,
  secret: string | undefined,
  token: string,
  env: Record<string, string>,
) =>
  startPeer(peerScript('hive-peer.ts'), 'hive gateway', token, (port) => ({
    ...env,
    HIVE_PORT: String(port),
    HIVE_DEDUP: String(dedup),
    HIVE_SUBGRAPHS: JSON.stringify(subgraphs),
    SUPERGRAPH_PATH: join(repoRoot, 'supergraph.graphql'),
    ...(secret ? { HIVE_SECRET_HEADER: GATEWAY_SECRET_HEADER, HIVE_SECRET: secret } : {}),
  }));

/** The ceiling (ceiling-peer.ts) in its own process, in front of `upstream`. */
const startCeiling = (upstream: string, token: string, env: Record<string, string>) =>
  startPeer('ceiling-peer.ts', 'ceiling', token, (port) => ({
    ...env,
    CEILING_PORT: String(port),
    CEILING_UPSTREAM: upstream,
  }));

/** The relay (relay-peer.ts) in its own process, in front of every subgraph. */
const startRelay = (
  subgraphs: Record<string, string>,
  headers: Record<string, string>,
  token: string,
  env: Record<string, string>,
) =>
  startPeer('relay-peer.ts', 'relay', token, (port) => ({
    ...env,
    RELAY_PORT: String(port),
    RELAY_SUBGRAPHS: JSON.stringify(subgraphs),
    RELAY_HEADERS: JSON.stringify(headers),
  }));

/**
 * The baseline checkout's gateway in its own process, configured as the platform configures ours
 * (same SSO, subgraphs, secret, Redis) but with its own query cache prefix; ready once it answers.
 */
async function startBaselineGateway(
  root: string,
  platform: Awaited<ReturnType<typeof startPlatform>>,
  env: Record<string, string | undefined>,
  token: string,
): Promise<Peer> {
  const port = await freePort();
  const routing = Object.fromEntries(
    Object.entries(platform.urls.subgraphs).map(([name, url]) => [
      `SUBGRAPH_${name.toUpperCase().replace(/-/g, '_')}_URL`,
      url,
    ]),
  );
  const child = spawn(
    process.execPath,
    ['--no-warnings', ...SERVICE_NODE_FLAGS, '--import', 'tsx', 'apps/gateway/src/main.ts'],
    {
      cwd: root,
      env: {
        ...env,
        ...routing,
        GATEWAY_PORT: String(port),
        SSO_ISSUER: platform.urls.sso,
        SUBGRAPH_SHARED_SECRET: platform.subgraphHeaders[GATEWAY_SECRET_HEADER],
        DATABASE_URL: platform.databaseUrl,
        ...benchRedisEnv('baseline'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return readyChild(child, port, token, 'baseline gateway');
}

/** A ratio column: its label, then the modes divided. */
type Ratio = [label: string, over: Mode, under: Mode];

/** One table per measure: a row per shape and traffic, a column per mode, then the ratios. */
function printTable(
  value: (shape: string, traffic: Traffic, mode: Mode) => number,
  digits: number,
  ratios: Ratio[],
) {
  const f = (n: number, places = 2) => (Number.isFinite(n) ? n.toFixed(places) : '-');
  const width = (label: string) => Math.max(label.length, 6) + 1;
  console.log(
    `${'shape'.padEnd(SHAPE_WIDTH)}${'traffic'.padEnd(8)}${MODES.map((m) => m.padStart(width(m))).join('')}  ` +
      ratios.map(([label]) => label.padStart(width(label))).join(''),
  );
  for (const shape of SHAPES)
    for (const traffic of TRAFFIC) {
      const v = (mode: Mode) => value(shape, traffic, mode);
      console.log(
        `${shape.padEnd(SHAPE_WIDTH)}${traffic.padEnd(8)}${MODES.map((m) => f(v(m), digits).padStart(width(m))).join('')}  ` +
          ratios.map(([label, over, under]) => f(v(over) / v(under)).padStart(width(label))).join(''),
      );
    }
}

const database = await benchDatabase('bench_peers');
const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-bench-'));
const profileEnv: Record<string, string> = PROFILE_DIR
  ? (mkdirSync(PROFILE_DIR, { recursive: true }),
    {
      NODE_OPTIONS: `--import ${join(repoRoot, 'tools/bench/src/cpu-profile.mjs')}`,
      BENCH_PROFILE_DIR: PROFILE_DIR,
    })
  : {};
const pids: string[] = [];
const ports: Record<string, number> = {};
for (const name of ['gateway', 'sso', ...(await loadSubgraphManifests()).map((s) => s.name)])
  ports[name] = await freePort();
const platform = await startPlatform({
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    // High enough never to throttle the benchmark; the limiter still runs on every request.
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_BURST: '100000000',
    ...benchRedisEnv(),
    ...profileEnv,
  },
  dataDir: dir,
  ports,
  processes: true,
  log: (line) => {
    if (/: process \d+$/.test(line)) pids.push(line);
  },
});
const hives: Peer[] = [];
let baseline: Peer | undefined;
let ceiling: Peer | undefined;
let relay: Peer | undefined;
const pools: Pool[] = [];
try {
  const sso = platform.urls.sso;
  const secret = platform.subgraphHeaders[GATEWAY_SECRET_HEADER];
  const uncachedTokens: string[] = [];
  const cachedTokens: string[] = [];
  for (let i = 0; i < LOGINS; i++) uncachedTokens.push(await login(sso));
  for (let i = 0; i < LOGINS; i++) cachedTokens.push(await login(sso));
  const gateway = loopback(platform.urls.graphql);
  const pool = (url: URL) => {
    const p = new Pool(url.origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 30_000 });
    pools.push(p);
    return p;
  };
  const gatewayPool = pool(gateway);
  const saveCacheSettings = async (target: Pool, path: string) => {
    for (const token of cachedTokens)
      await send(
        { pool: target, path, headers: {} },
        token,
        JSON.stringify({ query: '{ cache(ttl: 3600) { ttl } }' }),
      );
  };
  await saveCacheSettings(gatewayPool, gateway.pathname);
  if (BASELINE && MODES.some((mode) => mode.startsWith('base-')))
    baseline = await startBaselineGateway(
      BASELINE,
      platform,
      {
        ...process.env,
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_MINUTE: '100000000',
        RATE_LIMIT_BURST: '100000000',
        ...profileEnv,
      },
      uncachedTokens[0]!,
    );
  const baselineUrl = baseline ? new URL(baseline.url) : undefined;
  const baselinePool = baselineUrl ? pool(baselineUrl) : undefined;
  if (baselinePool && baselineUrl) await saveCacheSettings(baselinePool, baselineUrl.pathname);

  if (MODES.includes('hive'))
    hives.push(await startHive(true, platform.urls.subgraphs, secret, uncachedTokens[0]!, profileEnv));
  if (MODES.includes('hive-nodedup'))
    hives.push(await startHive(false, platform.urls.subgraphs, secret, uncachedTokens[0]!, profileEnv));
  if (MODES.includes('ceiling')) ceiling = await startCeiling(gateway.href, uncachedTokens[0]!, profileEnv);
  const ceilingUrl = ceiling ? new URL(ceiling.url) : undefined;
  const ceilingPool = ceilingUrl ? pool(ceilingUrl) : undefined;
  if (MODES.includes('relay'))
    relay = await startRelay(
      platform.urls.subgraphs,
      platform.subgraphHeaders,
      uncachedTokens[0]!,
      profileEnv,
    );
  const relayUrl = relay ? new URL(relay.url) : undefined;
  const relayPool = relayUrl ? pool(relayUrl) : undefined;
  for (const line of pids) console.log(line);
  const pidOf = (name: string) =>
    Number(pids.find((line) => line.startsWith(`${name}: `))?.replace(/^.*: process /, '')) || undefined;
  for (const hive of hives) console.log(`hive gateway: process ${hive.child.pid}`);
  if (baseline) console.log(`baseline gateway (${BASELINE}): process ${baseline.child.pid}`);
  if (ceiling) console.log(`ceiling: process ${ceiling.child.pid}`);
  if (relay) console.log(`relay: process ${relay.child.pid}`);
  const hiveOf = (dedup: boolean) => hives[MODES.includes('hive') && !dedup ? 1 : 0]!;

  const subgraphPools = new Map<string, { pool: Pool; path: string }>();
  const direct = (subgraph: string) => {
    let found = subgraphPools.get(subgraph);
    if (!found) {
      const url = loopback(platform.urls.subgraphs[subgraph]!);
      subgraphPools.set(subgraph, (found = { pool: pool(url), path: url.pathname }));
    }
    return found;
  };
  const hivePools = new Map<boolean, Pool>();
  const hiveTarget = (dedup: boolean): Target => {
    const url = new URL(hiveOf(dedup).url);
    let p = hivePools.get(dedup);
    if (!p) hivePools.set(dedup, (p = pool(url)));
    return { pool: p, path: url.pathname, headers: {} };
  };
  const targets = (shape: Shape): Record<Mode, Target> => ({
    direct: { ...direct(shape.subgraph), headers: platform.subgraphHeaders },
    uncached: { pool: gatewayPool, path: gateway.pathname, headers: {}, cache: 'bypass' },
    cached: { pool: gatewayPool, path: gateway.pathname, headers: {}, cache: 'hit' },
    ceiling: { pool: ceilingPool!, path: ceilingUrl?.pathname ?? '', headers: {} },
    relay: { pool: relayPool!, path: `${relayUrl?.pathname ?? ''}/${shape.subgraph}`, headers: {} },
    hive: MODES.includes('hive') ? hiveTarget(true) : (undefined as never),
    'hive-nodedup': MODES.includes('hive-nodedup') ? hiveTarget(false) : (undefined as never),
    'base-uncached': { pool: baselinePool!, path: baselineUrl?.pathname ?? '', headers: {}, cache: 'bypass' },
    'base-cached': { pool: baselinePool!, path: baselineUrl?.pathname ?? '', headers: {}, cache: 'hit' },
  });
  const tokensOf = (mode: Mode, traffic: Traffic) => {
    const tokens =
      mode === 'cached' || mode === 'base-cached' || mode === 'ceiling' ? cachedTokens : uncachedTokens;
    return traffic === 'one' ? tokens.slice(0, 1) : tokens;
  };
  const bodiesOf = (shape: Shape, traffic: Traffic) =>
    (traffic === 'one' ? [shape.one] : shape.many).map((v) =>
      JSON.stringify({ query: v.query, variables: v.variables ?? {} }),
    );

  const shapes = SHAPE_DEFS.filter((s) => SHAPES.includes(s.name));
  // Same answer every way (checked on the first variant), and every path warmed (plans, JIT,
  // cache entries stored for every cached login and variant).
  for (const shape of shapes) {
    const all = targets(shape);
    const answers = new Map<Mode, string>();
    for (const mode of MODES) {
      const { cache, ...target } = all[mode];
      for (const traffic of TRAFFIC) {
        const bodies = bodiesOf(shape, traffic);
        for (const token of tokensOf(mode, traffic))
          for (const body of bodies) {
            const text = await send(target, token, body);
            if (body === bodies[0] && !answers.has(mode))
              answers.set(mode, JSON.stringify(JSON.parse(text).data));
          }
      }
      void cache;
      void (await drive(all[mode], tokensOf(mode, 'many'), bodiesOf(shape, 'many'), 0.5));
    }
    const distinct = new Set(answers.values());
    if (distinct.size !== 1) throw new Error(`${shape.name}: the modes do not give the same answer`);
  }

  console.log(
    `gateway peers benchmark: ${ROUNDS} interleaved rounds x ${SECONDS} s per cell, ${CONCURRENCY} connections, ` +
      `many = ${LOGINS} logins with varied queries; every service its own process; ` +
      `gateway cache ${process.env.REDIS_URL ? 'in Redis' : 'in memory'}`,
  );
  const results = new Map<string, number[]>();
  /** CPU ms and requests of the answering process per cell, summed over the rounds. */
  const cpu = new Map<string, { ms: number; requests: number }>();
  const answering = (shape: Shape, mode: Mode): number | undefined =>
    mode === 'direct'
      ? pidOf(shape.subgraph)
      : mode === 'uncached' || mode === 'cached'
        ? pidOf('gateway')
        : mode === 'hive' || mode === 'hive-nodedup'
          ? hiveOf(mode === 'hive').child.pid
          : mode === 'ceiling'
            ? ceiling?.child.pid
            : mode === 'relay'
              ? relay?.child.pid
              : baseline?.child.pid;
  const cell = (shape: string, traffic: Traffic, mode: Mode) => `${shape}/${traffic}/${mode}`;
  for (let round = 0; round < ROUNDS; round++)
    for (const shape of shapes)
      for (const traffic of TRAFFIC) {
        const all = targets(shape);
        // Rotate the order each round so no mode always runs first (or after the same one).
        const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]!);
        for (const mode of order) {
          const pid = answering(shape, mode);
          const cpuBefore = cpuMs(pid);
          const { rps, requests } = await drive(
            all[mode],
            tokensOf(mode, traffic),
            bodiesOf(shape, traffic),
            SECONDS,
          );
          const key = cell(shape.name, traffic, mode);
          results.set(key, [...(results.get(key) ?? []), rps]);
          const used = cpu.get(key) ?? { ms: 0, requests: 0 };
          cpu.set(key, { ms: used.ms + cpuMs(pid) - cpuBefore, requests: used.requests + requests });
        }
      }
  const mean = (values: number[] | undefined) =>
    values && values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
  const rps = (shape: string, traffic: Traffic, mode: Mode) => mean(results.get(cell(shape, traffic, mode)));
  const cpuPerRequest = (shape: string, traffic: Traffic, mode: Mode) => {
    const used = cpu.get(cell(shape, traffic, mode));
    return used && used.requests > 0 ? used.ms / used.requests : NaN;
  };
  const base = (ratios: Ratio[], baseRatios: Ratio[]) => (baseline ? [...ratios, ...baseRatios] : ratios);
  printTable(
    rps,
    0,
    base(
      [
        ['unc/hive', 'uncached', 'hive'],
        ['unc/hive-nd', 'uncached', 'hive-nodedup'],
        ['unc/direct', 'uncached', 'direct'],
        ['cached/unc', 'cached', 'uncached'],
        ['ceil/unc', 'ceiling', 'uncached'],
        ['cached/ceil', 'cached', 'ceiling'],
        ['relay/direct', 'relay', 'direct'],
        ['unc/relay', 'uncached', 'relay'],
        ['hive/direct', 'hive', 'direct'],
      ],
      [
        ['unc/base-unc', 'uncached', 'base-uncached'],
        ['cached/base-cached', 'cached', 'base-cached'],
        ['base-unc/direct', 'base-uncached', 'direct'],
      ],
    ),
  );
  console.log(
    '(req/s, mean of the rounds; unc = Fleetgraph gateway uncached, hive-nd = Hive with deduplication off,\n' +
      ' ceil = stored bytes answered by a bare node:http server: the most any cache could reach here,\n' +
      ' relay = bytes relayed to the subgraph and back by a bare node:http server: the most any gateway could reach here' +
      (baseline ? `, base = the gateway of ${BASELINE})` : ')'),
  );
  console.log();
  printTable(
    cpuPerRequest,
    2,
    base(
      [
        ['hive/unc', 'hive', 'uncached'],
        ['hive-nd/unc', 'hive-nodedup', 'uncached'],
        ['unc/direct', 'uncached', 'direct'],
        ['unc/cached', 'uncached', 'cached'],
        ['cached/ceil', 'cached', 'ceiling'],
        ['unc/relay', 'uncached', 'relay'],
      ],
      [
        ['base-unc/unc', 'base-uncached', 'uncached'],
        ['base-cached/cached', 'base-cached', 'cached'],
      ],
    ),
  );
  console.log(
    '(CPU ms per request of the process that answers it: the gateway, Hive, the ceiling or relay, or the subgraph for direct;\n' +
      " from /proc, so it holds on a busy machine; a ratio > 1 means the first costs more. Our gateway's\n" +
      " uncached figure does not include the subgraph's work, direct's is the subgraph's whole cost)",
  );
  for (const [target, misses] of unexpectedMisses)
    console.log(
      `note: ${misses} answers of a cached mode were misses (${target === gatewayPool ? 'ours' : 'baseline'}; Redis too slow to answer in time?)`,
    );
} finally {
  for (const p of pools) await p.close();
  for (const hive of hives) await hive.stop();
  await baseline?.stop();
  await ceiling?.stop();
  await relay?.stop();
  await platform.close();
  await deleteBenchRedisKeys();
  rmSync(dir, { recursive: true, force: true });
  await database.close();
}
