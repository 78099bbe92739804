/**
 * The SSO's refresh grant side by side with its peer: Fleetgraph's SSO and
 * node-oidc-provider v9 (oidc-peer.ts: in-memory adapter, RS256 JWT access tokens for one
 * resource, rotation on, a confidential client), each in its own process, interleaved in one run.
 * This process only sends the load, over undici pools of keep-alive connections.
 *
 * Both sides, per loop: a chain of refresh grants from one confidential client
 * (client_secret_basic), each answer checked (HTTP 200, a bearer JWT, a new refresh token) and
 * its rotated refresh token sent next; the chains go on across cells and rounds.
 * - Fleetgraph: its real path. One user per loop, signed in with the password grant through the
 *   application (so the refresh tokens are bound to it); refresh tokens rotate durably in
 *   PostgreSQL (committed before the answer). The sign-in throttling is configured (LOGIN_*) so
 *   the set-up logins are never refused; its code runs as in production.
 * - node-oidc-provider: one account per loop, through the real authorization-code flow
 *   (/auth -> interaction -> /auth/:uid -> code -> /token) driven without a browser: the peer's
 *   interaction endpoint signs in `login_hint` and grants at once. The first refresh token is thus
 *   exactly what a client of the peer gets; nothing is seeded behind its back.
 * - floor (sso-floor.ts, unless BENCH_FLOOR=false): a bare node:http server doing only the durable
 *   work of the SSO's refresh (the client's secret checked, the SSO's own batched rotation
 *   statement, the RS256 signature, the revocations published) on its own database with the SSO's
 *   schema, its first refresh tokens stored as the password grant stores them. floor /
 *   node-oidc-provider bounds what any server doing this durable work could print here.
 * Before measuring, the SSO and the peer prove rotation: a refresh token used twice is refused the
 * second time.
 *
 * Rounds alternate which side runs first; each round runs every CONCURRENCY level.
 *
 *   npx tsx tools/bench/src/sso-peers.ts
 *     BENCH_SSO_BASELINE=<another checkout> adds its SSO as a third side (before/after in one run:
 *       e.g. `git worktree add /tmp/base <commit>` and a node_modules symlink; its SSO runs from
 *       there, on that checkout's libs),
 *     BENCH_SECONDS (3) per cell, BENCH_ROUNDS (4), BENCH_CONCURRENCY (8,32),
 *     BENCH_PROFILE_DIR: the SSO and the peer run with `node --cpu-prof` and write their profiles
 *     there, one folder per service (the largest file is the main thread; cpu-profile-top.mjs); REDIS_URL: the SSO publishes revocations to Redis.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { createKnex, migrateSchema, type Knex } from '@fleetgraph/db';
import { createApplication, hashPassword, insertRefreshToken, migrations, SSO_SCHEMA } from '@fleetgraph/sso';
import { repoRoot, SERVICE_NODE_FLAGS } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { cpuMs } from './load';
import { stopper, waitUntilReady } from './peer-process';
import { peerScript } from './peers';
import { benchRedisEnv, deleteBenchRedisKeys, deleteRevocationKeysOf } from './redis-scope';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '8,32').split(',').map(Number);
const MAX_LOOPS = Math.max(...LEVELS);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ? resolve(process.env.BENCH_PROFILE_DIR) : undefined;
const PASSWORD = 'bench-password-1';
/** Another checkout of the repository whose SSO runs as a third side (before/after in one run). */
const BASELINE = process.env.BENCH_SSO_BASELINE;
const PEER_SCOPE = 'api:read';
/** The floor (sso-floor.ts) runs as a side unless BENCH_FLOOR=false. */
const FLOOR = process.env.BENCH_FLOOR !== 'false';

type Side = 'fleetgraph' | 'baseline' | 'floor' | 'oidc-provider';

/** A service in its own process (with --cpu-prof when profiling), ready once `ready` answers 200. */
async function startProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  ready: string,
  checkout: string = repoRoot,
) {
  // One folder per service: node writes a profile per thread (tsx's loader thread too); the
  // largest file is the main thread's.
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : [];
  // Our services run with their deployed flags (as the Dockerfile sets them); the peer as installed.
  const flags = name === 'oidc-peer' ? [] : SERVICE_NODE_FLAGS;
  // Run from its checkout: tsx maps @fleetgraph/* by the tsconfig it finds there, so a baseline's
  // SSO runs on the baseline's libs, not this checkout's.
  const child = spawn(process.execPath, ['--no-warnings', ...flags, ...profile, '--import', 'tsx', script], {
    cwd: checkout,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // SIGINT: both let node write the CPU profile on a clean exit.
  const stop = stopper(child, 'SIGINT');
  await waitUntilReady(child, name, async () => (await fetch(ready)).ok);
  return { child, stop };
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

interface TokenAnswer {
  access_token: string;
  token_type: string;
  refresh_token: string;
}

class TokenClient {
  readonly pool: Pool;
  constructor(
    readonly side: Side,
    origin: string,
    readonly path: string,
    readonly authorization: string,
  ) {
    this.pool = new Pool(origin, { connections: MAX_LOOPS, pipelining: 1, keepAliveTimeout: 30_000 });
  }

  /** Posts a token request; answers the parsed body when `expect` is the status, else throws. */
  async post(form: Record<string, string>, expect = 200): Promise<TokenAnswer> {
    const response = await this.pool.request({
      path: this.path,
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: this.authorization,
      },
      body: new URLSearchParams(form).toString(),
    });
    const text = await response.body.text();
    if (response.statusCode !== expect)
      throw new Error(
        `${this.side} ${form.grant_type} answered ${response.statusCode}: ${text.slice(0, 300)}`,
      );
    return JSON.parse(text) as TokenAnswer;
  }

  /** A refresh that must succeed with a rotated refresh token and a bearer RS256 JWT. */
  async refresh(refreshToken: string): Promise<string> {
    const answer = await this.post({ grant_type: 'refresh_token', refresh_token: refreshToken });
    if (
      answer.token_type.toLowerCase() !== 'bearer' ||
      !answer.refresh_token ||
      answer.refresh_token === refreshToken ||
      answer.access_token.split('.').length !== 3
    )
      throw new Error(`${this.side}: not a rotated bearer JWT answer: ${JSON.stringify(answer)}`);
    return answer.refresh_token;
  }
}

function jwtHeader(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * Proves rotation on a spare chain: the refresh answers an RS256 JWT, the token it replaced is
 * refused when used again, and that reuse revoked its successor too.
 */
async function proveRotation(client: TokenClient, spare: string): Promise<void> {
  const answer = await client.post({ grant_type: 'refresh_token', refresh_token: spare });
  if (jwtHeader(answer.access_token).alg !== 'RS256')
    throw new Error(`${client.side}: access token not RS256`);
  await client.post({ grant_type: 'refresh_token', refresh_token: spare }, 400);
  await client.post({ grant_type: 'refresh_token', refresh_token: answer.refresh_token }, 400);
}

/** A tiny cookie jar: every cookie set so far, sent on every request (paths ignored). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    store(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/** The authorization-code flow of the peer without a browser: answers the first refresh token. */
async function peerLogin(
  origin: string,
  client: TokenClient,
  clientId: string,
  accountId: string,
): Promise<string> {
  const jar = cookieJar();
  const authorize = new URL('/auth', origin);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: PEER_SCOPE,
    login_hint: accountId,
    state: randomUUID(),
  }).toString();
  let url = authorize.href;
  for (let hop = 0; hop < 6; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`peer authorization stopped at ${url}: ${response.status} ${await response.text()}`);
    await response.body?.cancel();
    const next = new URL(location, url);
    const code = next.searchParams.get('code');
    if (code && !next.href.startsWith(origin)) {
      const answer = await client.post({ grant_type: 'authorization_code', code });
      if (!answer.refresh_token) throw new Error(`peer issued no refresh token: ${JSON.stringify(answer)}`);
      return answer.refresh_token;
    }
    url = next.href;
  }
  throw new Error('peer authorization did not end with a code');
}

/** `loops` chains (the first `loops` of `chains`) refreshing for SECONDS; tokens/s. */
async function drive(client: TokenClient, chains: string[], loops: number, seconds: number): Promise<number> {
  let done = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: loops }, async (_, i) => {
      while (performance.now() < deadline) {
        chains[i] = await client.refresh(chains[i]!);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

/** load.ts's cpuMs, 0 once the process is gone (a PostgreSQL backend may end during a cell). */
const cpuOf = (pid: number) => cpuMs(pid) || 0;

/**
 * CPU used by a side's servers during a cell, per part: the peer's process; the SSO's process and
 * the PostgreSQL backends serving it (found by application_name; PostgreSQL runs on this machine).
 */
function cpuMeter(parts: Record<string, () => Promise<number[]>>) {
  return async () => {
    const before = new Map<number, number>();
    for (const pids of Object.values(parts)) for (const pid of await pids()) before.set(pid, cpuOf(pid));
    return async () => {
      const used: Record<string, number> = {};
      for (const [part, pids] of Object.entries(parts)) {
        used[part] = 0;
        for (const pid of await pids()) used[part] += cpuOf(pid) - (before.get(pid) ?? 0);
      }
      return used;
    };
  };
}

interface BenchSide {
  name: Side;
  client: TokenClient;
  /** The chains a cell refreshes (the first `loops` of them), ready before its clock starts. */
  chains(): Promise<string[]>;
  meter: () => Promise<() => Promise<Record<string, number>>>;
}

/**
 * The benchmark's confidential application (password and refresh_token grants) and its users, in
 * an SSO database: the client id and its HTTP Basic credentials.
 */
async function registerBench(knex: Knex, users: NewUser[]) {
  const { application, clientSecret } = await createApplication(knex, {
    name: 'bench',
    redirectUris: ['http://127.0.0.1/callback'],
    confidential: true,
    grantTypes: ['password', 'refresh_token'],
  });
  await knex('sso.users').insert(users);
  return { clientId: application.clientId, authorization: basic(application.clientId, clientSecret!) };
}

/**
 * A Fleetgraph SSO in its own process (`checkout`'s apps/sso/src/main.ts) on its own database:
 * a confidential application, one user per loop plus a spare one for the rotation proof, each
 * signed in with the password grant through the application.
 */
async function fleetgraphSide(name: Side, checkout: string, users: NewUser[]): Promise<BenchSide> {
  const database = await benchDatabase(`sso_peers_${name.replace(/\W/g, '_')}`);
  cleanups.push(() => database.close());
  const knex = createKnex({ url: database.url });
  cleanups.push(() => knex.destroy());
  // A baseline older than REVOCATION_PREFIX publishes under the production prefix: its keys are
  // found by the revoked tokens its database holds, and deleted.
  if (checkout !== repoRoot)
    cleanups.push(async () =>
      deleteRevocationKeysOf(await knex('sso.access_tokens').whereNotNull('revoked_at').pluck('jti')),
    );
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sso = await startProcess(
    name,
    join(checkout, 'apps/sso/src/main.ts'),
    {
      DATABASE_URL: database.url,
      SSO_PORT: String(port),
      SSO_ISSUER: origin,
      LOG_LEVEL: 'warn',
      ...benchRedisEnv(name),
      // The set-up signs in MAX_LOOPS users from one address at once: ceilings well above that.
      LOGIN_ADDRESS_MAX_FAILURES: '100000',
      LOGIN_PAIR_MAX_FAILURES: '100000',
      LOGIN_DELAY_AFTER_FAILURES: '100000',
    },
    `${origin}/readyz`,
    checkout,
  );
  cleanups.push(() => sso.stop());
  console.log(`${name} (${join(checkout, 'apps/sso')}): process ${sso.child.pid}`);
  const { authorization } = await registerBench(knex, users);
  const client = new TokenClient(name, origin, '/oauth/token', authorization);
  cleanups.push(() => client.pool.close());
  const chains = await Promise.all(
    users.map(
      async (u) =>
        (await client.post({ grant_type: 'password', username: u.email, password: PASSWORD })).refresh_token,
    ),
  );
  await proveRotation(client, chains.pop()!);
  return {
    name,
    client,
    chains: async () => chains,
    meter: cpuMeter({
      sso: async () => [sso.child.pid!],
      postgres: backendsOf(knex, database.url, 'sso%'),
    }),
  };
}

/** The pids of the PostgreSQL backends of a database whose application_name is like `name`. */
function backendsOf(knex: Knex, url: string, name: string): () => Promise<number[]> {
  const dbName = new URL(url).pathname.slice(1);
  return async () =>
    (
      await knex.raw(`select pid from pg_stat_activity where datname = ? and application_name like ?`, [
        dbName,
        name,
      ])
    ).rows.map((r: { pid: number }) => r.pid);
}

/**
 * The floor (sso-floor.ts) in its own process on a database of its own with the SSO's schema, the
 * same confidential application and one user per loop, each with a refresh token as the password
 * grant stores it. Its own database, so neither side works on the other's rows and dead tuples
 * (autovacuum may be off).
 */
async function floorSide(users: NewUser[]): Promise<BenchSide> {
  const database = await benchDatabase('sso_peers_floor');
  cleanups.push(() => database.close());
  const knex = createKnex({ url: database.url });
  cleanups.push(() => knex.destroy());
  await migrateSchema(knex, SSO_SCHEMA, migrations);
  const { clientId, authorization } = await registerBench(knex, users);
  const chains = await Promise.all(
    users.map((u) =>
      insertRefreshToken(knex, {
        familyId: randomUUID(),
        userId: u.id,
        clientId,
        scope: 'public',
        ttlSeconds: 30 * 86_400,
      }),
    ),
  );
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const floor = await startProcess(
    'floor',
    join(repoRoot, 'tools/bench/src/sso-floor.ts'),
    {
      FLOOR_PORT: String(port),
      FLOOR_DATABASE_URL: database.url,
      FLOOR_CLIENT_ID: clientId,
      ...benchRedisEnv('floor'),
    },
    `${origin}/readyz`,
  );
  cleanups.push(() => floor.stop());
  console.log(`floor: process ${floor.child.pid}`);
  const client = new TokenClient('floor', origin, '/oauth/token', authorization);
  cleanups.push(() => client.pool.close());
  return {
    name: 'floor',
    client,
    chains: async () => chains,
    meter: cpuMeter({
      sso: async () => [floor.child.pid!],
      postgres: backendsOf(knex, database.url, 'bench-sso-floor'),
    }),
  };
}

/** node-oidc-provider in its own process (oidc-peer.ts), one account per loop. */
async function peerSide(accounts: string[]): Promise<BenchSide> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const clientId = 'bench-client';
  const secret = `peer-${randomUUID()}`;
  const peer = await startProcess(
    'oidc-peer',
    peerScript('oidc-peer.ts'),
    { OIDC_PEER_PORT: String(port), OIDC_PEER_CLIENT_ID: clientId, OIDC_PEER_CLIENT_SECRET: secret },
    `${origin}/.well-known/openid-configuration`,
  );
  cleanups.push(() => peer.stop());
  console.log(`oidc-provider: process ${peer.child.pid}`);
  const client = new TokenClient('oidc-provider', origin, '/token', basic(clientId, secret));
  cleanups.push(() => client.pool.close());
  await proveRotation(client, await peerLogin(origin, client, clientId, accounts[MAX_LOOPS]!));
  return {
    name: 'oidc-provider',
    client,
    // The peer's default in-memory adapter is an LRU of 1,000 entries: the grants of chains idle
    // during a cell are evicted (a refresh then fails: "grant request is invalid"). So each of its
    // cells starts from fresh grants, signed in through the code flow before the clock starts.
    chains: () =>
      Promise.all(accounts.slice(0, MAX_LOOPS).map((a) => peerLogin(origin, client, clientId, a))),
    meter: cpuMeter({ peer: async () => [peer.child.pid!] }),
  };
}

interface NewUser {
  id: string;
  email: string;
  password_hash: string;
  full_name: string;
}

const cleanups: (() => Promise<unknown>)[] = [];
if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
try {
  const passwordHash = await hashPassword(PASSWORD);
  const users = (): NewUser[] =>
    Array.from({ length: MAX_LOOPS + 1 }, (_, i) => ({
      id: randomUUID(),
      email: `bench${i}@fleetgraph.test`,
      password_hash: passwordHash,
      full_name: `Bench ${i}`,
    }));
  const sides: BenchSide[] = [await fleetgraphSide('fleetgraph', repoRoot, users())];
  if (FLOOR) sides.push(await floorSide(users()));
  if (BASELINE) sides.push(await fleetgraphSide('baseline', resolve(BASELINE), users()));
  sides.push(await peerSide(users().map((u) => u.email)));
  for (const side of sides) await drive(side.client, await side.chains(), MAX_LOOPS, 1); // warm-up

  console.log(
    `SSO refresh grant vs node-oidc-provider: ${ROUNDS} interleaved rounds x ${SECONDS} s per cell; ` +
      `each side its own process; Fleetgraph durable in PostgreSQL, revocations ${process.env.REDIS_URL ? 'in Redis' : 'in memory'}; ` +
      `oidc-provider in memory`,
  );
  const results = new Map<string, number[]>();
  /** Server CPU ms per token, per cell and part. */
  const cpu = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, value: number) =>
    map.set(key, [...(map.get(key) ?? []), value]);
  for (let round = 0; round < ROUNDS; round++)
    for (const loops of LEVELS) {
      // Rotate the order each round so no side always runs first (or after the same one).
      const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
      for (const side of order) {
        const chains = await side.chains();
        const stop = await side.meter();
        const started = performance.now();
        const rate = await drive(side.client, chains, loops, SECONDS);
        const tokens = (rate * (performance.now() - started)) / 1000;
        add(results, `${side.name}/${loops}`, rate);
        for (const [part, ms] of Object.entries(await stop()))
          add(cpu, `${side.name}/${loops}/${part}`, ms / tokens);
      }
    }
  const mean = (values: number[] | undefined) =>
    (values ?? []).reduce((a, b) => a + b, 0) / (values?.length ?? 1);
  const names = sides.map((s) => s.name);
  const pairs: [Side, Side][] = [['fleetgraph', 'oidc-provider']];
  if (FLOOR) pairs.push(['floor', 'oidc-provider'], ['fleetgraph', 'floor']);
  if (BASELINE) pairs.push(['baseline', 'oidc-provider'], ['fleetgraph', 'baseline']);
  console.log(
    `${'in flight'.padEnd(10)}${names.map((n) => n.padStart(15)).join('')}   ` +
      pairs.map(([a, b]) => `${a} / ${b} (per round)`).join('   '),
  );
  for (const loops of LEVELS) {
    const rates = (name: Side) => results.get(`${name}/${loops}`)!;
    const ratio = ([a, b]: [Side, Side]) =>
      `${(mean(rates(a)) / mean(rates(b))).toFixed(2)} (${rates(a)
        .map((v, i) => (v / rates(b)[i]!).toFixed(2))
        .join(' ')})`;
    console.log(
      `${String(loops).padEnd(10)}${names.map((n) => mean(rates(n)).toFixed(0).padStart(15)).join('')}   ` +
        pairs.map(ratio).join('   '),
    );
  }
  console.log(
    '(refresh tokens/s, mean of the rounds; every refresh answered 200 and its rotated token was used next)',
  );
  console.log(
    `${'in flight'.padEnd(10)}${names.map((n) => n.padStart(15)).join('')}   server CPU ms per token (Fleetgraph: SSO process + its PostgreSQL backends)`,
  );
  for (const loops of LEVELS) {
    const total = (name: Side) =>
      [...cpu].filter(([k]) => k.startsWith(`${name}/${loops}/`)).reduce((sum, [, v]) => sum + mean(v), 0);
    const parts = names
      .filter((n) => n !== 'oidc-provider')
      .map(
        (n) =>
          `${n}: SSO ${mean(cpu.get(`${n}/${loops}/sso`)).toFixed(3)} + PostgreSQL ${mean(cpu.get(`${n}/${loops}/postgres`)).toFixed(3)}`,
      );
    console.log(
      `${String(loops).padEnd(10)}${names.map((n) => total(n).toFixed(3).padStart(15)).join('')}   ${parts.join('; ')}`,
    );
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await deleteBenchRedisKeys();
}
