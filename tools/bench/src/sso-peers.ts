/**
 * The SSO's refresh grant side by side with its peer (issue 15): Fleetgraph's SSO and
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
 * Before measuring, each side proves rotation: a refresh token used twice is refused the second time.
 *
 * Rounds alternate which side runs first; each round runs every CONCURRENCY level.
 *
 *   npx tsx tools/bench/src/sso-peers.ts
 *     BENCH_SECONDS (3) per cell, BENCH_ROUNDS (4), BENCH_CONCURRENCY (8,32),
 *     BENCH_PROFILE_DIR: the SSO and the peer run with `node --cpu-prof` and write their profiles
 *     there, one folder per service (the largest file is the main thread; cpu-profile-top.mjs); REDIS_URL: the SSO publishes revocations to Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { createKnex } from '@fleetgraph/db';
import { createApplication, hashPassword } from '@fleetgraph/sso';
import { repoRoot } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/start';
import { benchDatabase } from './database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '8,32').split(',').map(Number);
const MAX_LOOPS = Math.max(...LEVELS);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ? resolve(process.env.BENCH_PROFILE_DIR) : undefined;
const PASSWORD = 'bench-password-1';
const PEER_SCOPE = 'api:read';

type Side = 'fleetgraph' | 'oidc-provider';

interface Server {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A service in its own process (with --cpu-prof when profiling), ready once `ready` answers 200. */
async function startProcess(name: string, script: string, env: Record<string, string>, ready: string) {
  // One folder per service: node writes a profile per thread (tsx's loader thread too); the
  // largest file is the main thread's.
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : [];
  const child = spawn(
    process.execPath,
    ['--no-warnings', ...profile, '--import', 'tsx', join(repoRoot, script)],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited before it was ready`);
    try {
      if ((await fetch(ready)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready within 60 s`);
    await delay(200);
  }
  return {
    child,
    async stop() {
      // SIGINT: both let node write the CPU profile on a clean exit.
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
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

/** CPU time (user + system, all threads) a process has used, in ms; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * CPU used by a side's servers during a cell, per part: the peer's process; the SSO's process and
 * the PostgreSQL backends serving it (found by application_name; PostgreSQL runs on this machine).
 */
function cpuMeter(parts: Record<string, () => Promise<number[]>>) {
  return async () => {
    const before = new Map<number, number>();
    for (const pids of Object.values(parts)) for (const pid of await pids()) before.set(pid, cpuMs(pid));
    return async () => {
      const used: Record<string, number> = {};
      for (const [part, pids] of Object.entries(parts)) {
        used[part] = 0;
        for (const pid of await pids()) used[part] += cpuMs(pid) - (before.get(pid) ?? 0);
      }
      return used;
    };
  };
}

if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
const database = await benchDatabase('sso_peers');
const knex = createKnex({ url: database.url });
const servers: Server[] = [];
const clients: TokenClient[] = [];
try {
  // Fleetgraph's SSO, as main.ts runs it.
  const ssoPort = await freePort();
  const ssoOrigin = `http://127.0.0.1:${ssoPort}`;
  const sso = await startProcess(
    'sso',
    'apps/sso/src/main.ts',
    {
      DATABASE_URL: database.url,
      SSO_PORT: String(ssoPort),
      SSO_ISSUER: ssoOrigin,
      LOG_LEVEL: 'warn',
      // The set-up signs in MAX_LOOPS users from one address at once: ceilings well above that.
      LOGIN_ADDRESS_MAX_FAILURES: '100000',
      LOGIN_PAIR_MAX_FAILURES: '100000',
      LOGIN_DELAY_AFTER_FAILURES: '100000',
    },
    `${ssoOrigin}/readyz`,
  );
  servers.push({ origin: ssoOrigin, ...sso });

  // node-oidc-provider.
  const peerPort = await freePort();
  const peerOrigin = `http://127.0.0.1:${peerPort}`;
  const peerClientId = 'bench-client';
  const peerSecret = `peer-${randomUUID()}`;
  const peer = await startProcess(
    'oidc-peer',
    'tools/bench/src/oidc-peer.ts',
    {
      OIDC_PEER_PORT: String(peerPort),
      OIDC_PEER_CLIENT_ID: peerClientId,
      OIDC_PEER_CLIENT_SECRET: peerSecret,
    },
    `${peerOrigin}/.well-known/openid-configuration`,
  );
  servers.push({ origin: peerOrigin, ...peer });
  for (const s of servers) console.log(`${s.origin}: process ${s.child.pid}`);

  // Fleetgraph: a confidential application and one user per loop, signed in with the password grant.
  const { application, clientSecret } = await createApplication(knex, {
    name: 'bench',
    redirectUris: ['http://127.0.0.1/callback'],
    confidential: true,
    grantTypes: ['password', 'refresh_token'],
  });
  const passwordHash = await hashPassword(PASSWORD);
  // One user per loop, and a spare one for the rotation proof.
  const users = Array.from({ length: MAX_LOOPS + 1 }, (_, i) => ({
    id: randomUUID(),
    email: `bench${i}@fleetgraph.test`,
    password_hash: passwordHash,
    full_name: `Bench ${i}`,
  }));
  await knex('sso.users').insert(users);
  const fleetgraph = new TokenClient(
    'fleetgraph',
    ssoOrigin,
    '/oauth/token',
    basic(application.clientId, clientSecret!),
  );
  const oidc = new TokenClient('oidc-provider', peerOrigin, '/token', basic(peerClientId, peerSecret));
  clients.push(fleetgraph, oidc);
  const client: Record<Side, TokenClient> = { fleetgraph, 'oidc-provider': oidc };
  const sides: Side[] = ['fleetgraph', 'oidc-provider'];
  const fleetgraphChains = await Promise.all(
    users.map(
      async (u) =>
        (await fleetgraph.post({ grant_type: 'password', username: u.email, password: PASSWORD }))
          .refresh_token,
    ),
  );
  await proveRotation(fleetgraph, fleetgraphChains.pop()!);
  // The peer's default in-memory adapter is an LRU of 1,000 entries: the grants of chains idle
  // during a cell are evicted (a refresh then fails: "grant request is invalid"). So each of its
  // cells starts from fresh grants, signed in through the code flow before the clock starts.
  const peerChains = () =>
    Promise.all(users.slice(0, MAX_LOOPS).map((u) => peerLogin(peerOrigin, oidc, peerClientId, u.email)));
  await proveRotation(oidc, await peerLogin(peerOrigin, oidc, peerClientId, users[MAX_LOOPS]!.email));
  const chainsFor = async (side: Side) => (side === 'fleetgraph' ? fleetgraphChains : await peerChains());
  for (const side of sides) await drive(client[side], await chainsFor(side), MAX_LOOPS, 1); // warm-up

  console.log(
    `SSO refresh grant vs node-oidc-provider: ${ROUNDS} interleaved rounds x ${SECONDS} s per cell; ` +
      `each side its own process; Fleetgraph durable in PostgreSQL, revocations ${process.env.REDIS_URL ? 'in Redis' : 'in memory'}; ` +
      `oidc-provider in memory`,
  );
  const results = new Map<string, number[]>();
  /** Server CPU ms per token, per cell. */
  const cpu = new Map<string, number[]>();
  const dbName = new URL(database.url).pathname.slice(1);
  const ssoPid = sso.child.pid!;
  const meters: Record<Side, () => Promise<() => Promise<Record<string, number>>>> = {
    fleetgraph: cpuMeter({
      sso: async () => [ssoPid],
      postgres: async () =>
        (
          await knex.raw(
            `select pid from pg_stat_activity where datname = ? and application_name like 'sso%'`,
            [dbName],
          )
        ).rows.map((r: { pid: number }) => r.pid),
    }),
    'oidc-provider': cpuMeter({ peer: async () => [peer.child.pid!] }),
  };
  for (let round = 0; round < ROUNDS; round++)
    for (const loops of LEVELS) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const chains = await chainsFor(side);
        const stop = await meters[side]();
        const started = performance.now();
        const rate = await drive(client[side], chains, loops, SECONDS);
        const tokens = (rate * (performance.now() - started)) / 1000;
        const key = `${side}/${loops}`;
        results.set(key, [...(results.get(key) ?? []), rate]);
        for (const [part, ms] of Object.entries(await stop())) {
          const k = `${key}/${part}`;
          cpu.set(k, [...(cpu.get(k) ?? []), ms / tokens]);
        }
      }
    }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(
    `${'in flight'.padEnd(10)}${'fleetgraph'.padStart(12)}${'oidc-provider'.padStart(15)}   fleetgraph / oidc-provider   (per round)`,
  );
  for (const loops of LEVELS) {
    const f = results.get(`fleetgraph/${loops}`)!;
    const o = results.get(`oidc-provider/${loops}`)!;
    const perRound = f.map((v, i) => (v / o[i]!).toFixed(2)).join(' ');
    console.log(
      `${String(loops).padEnd(10)}${mean(f).toFixed(0).padStart(12)}${mean(o).toFixed(0).padStart(15)}   ` +
        `${(mean(f) / mean(o)).toFixed(2).padStart(26)}   (${perRound})`,
    );
  }
  console.log(
    '(refresh tokens/s, mean of the rounds; every refresh answered 200 and its rotated token was used next)',
  );
  console.log(
    `${'in flight'.padEnd(10)}${'fleetgraph'.padStart(12)}${'oidc-provider'.padStart(15)}   server CPU ms per token (fleetgraph = SSO process + its PostgreSQL backends)`,
  );
  for (const loops of LEVELS) {
    const sso = mean(cpu.get(`fleetgraph/${loops}/sso`)!);
    const pg = mean(cpu.get(`fleetgraph/${loops}/postgres`)!);
    const o = mean(cpu.get(`oidc-provider/${loops}/peer`)!);
    console.log(
      `${String(loops).padEnd(10)}${(sso + pg).toFixed(3).padStart(12)}${o.toFixed(3).padStart(15)}   ` +
        `(SSO ${sso.toFixed(3)} + PostgreSQL ${pg.toFixed(3)}); oidc-provider / fleetgraph ${(o / (sso + pg)).toFixed(2)}`,
    );
  }
} finally {
  for (const c of clients) await c.pool.close();
  for (const s of servers) await s.stop();
  await knex.destroy();
  await database.close();
}
