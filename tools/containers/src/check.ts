/**
 * `npm run test:containers`: builds the images offline, starts the replicated platform from
 * scratch and checks it through the balanced addresses only, then runs a fault drill under
 * traffic. Figures are printed and written to tools/bench/results/<date>-containers.md.
 *
 * Which replica answered is read from HAProxy: the X-Fleetgraph-Instance response header for the
 * gateways and the SSOs, the per-server request counters of its statistics for the subgraphs.
 * A check whose steps must reach given replicas talks to their container addresses instead
 * (checks/: the code flow across SSOs, the cache flush); checks/freeze-primary.ts freezes the
 * primary under traffic.
 */
import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { GATEWAY_SECRET_HEADER } from '@fleetgraph/auth';
import { writeResult } from '@fleetgraph/bench/results';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { instanceName, REPLICAS } from './compose-file';
import { build, up } from './actions';
import { compose, ensureSecrets, graphql, signIn, urls, type GraphqlAnswer } from './platform';
import { containerAddress, containerOf, haproxyCounters, haproxyUp, type Outcome } from './checks/support';
import { checkCodeFlowAcrossSso } from './checks/code-flow';
import { checkCacheFlush } from './checks/cache-flush';
import { freezePrimary } from './checks/freeze-primary';

const log = (line: string) => console.log(`[test:containers] ${line}`);

const VEHICLES_PAGE = `query Walk($pageId: ID) { devices(pageSize: 7, pageId: $pageId) { list { id } next } }`;
const CHEAP_QUERY = '{ account { id } }';

async function refresh(refreshToken: string) {
  const response = await fetch(`${urls.sso}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    body: (await response.json()) as { access_token?: string; refresh_token?: string },
    instance: response.headers.get('x-fleetgraph-instance'),
  };
}

async function checkSignInAndRefresh(): Promise<Outcome> {
  const first = await signIn();
  let token = first.refresh_token;
  for (let attempt = 0; attempt < 6; attempt++) {
    const answer = await refresh(token);
    if (answer.status !== 200 || !answer.body.refresh_token)
      return {
        name: 'sign-in at one SSO, refresh at another',
        ok: false,
        detail: `refresh: HTTP ${answer.status}`,
      };
    token = answer.body.refresh_token;
    if (answer.instance && answer.instance !== first.instance)
      return {
        name: 'sign-in at one SSO, refresh at another',
        ok: true,
        detail: `signed in at ${first.instance}, refreshed at ${answer.instance}`,
      };
  }
  return {
    name: 'sign-in at one SSO, refresh at another',
    ok: false,
    detail: 'every answer came from one SSO',
  };
}

async function checkCursorWalk(token: string): Promise<Outcome> {
  const before = await haproxyCounters();
  const gateways = new Set<string>();
  const ids = new Set<string>();
  let pageId: string | null = null;
  let pages = 0;
  do {
    const answer: GraphqlAnswer = await graphql(token, VEHICLES_PAGE, { pageId });
    if (answer.status !== 200 || answer.body.errors)
      return {
        name: 'cursor walk across replicas',
        ok: false,
        detail: JSON.stringify(answer.body).slice(0, 300),
      };
    const page = answer.body.data.devices as { list: { id: string }[]; next: string | null };
    for (const { id } of page.list) {
      if (ids.has(id))
        return { name: 'cursor walk across replicas', ok: false, detail: `device ${id} seen twice` };
      ids.add(id);
    }
    if (answer.instance) gateways.add(answer.instance);
    pageId = page.next;
    pages++;
  } while (pageId && pages < 200);
  const after = await haproxyCounters();
  const core = Object.entries(after['fleet-core'] ?? {})
    .filter(([server, n]) => n > (before['fleet-core']?.[server] ?? 0))
    .map(([server]) => server);
  const ok = gateways.size >= 2 && core.length >= 2;
  return {
    name: 'cursor walk across replicas',
    ok,
    detail: `${pages} pages, ${ids.size} devices, no repeat; gateways ${[...gateways].join(', ')}; fleet-core replicas ${core.join(', ')}`,
  };
}

async function checkRevocation(): Promise<Outcome> {
  const { access_token } = await signIn();
  // both gateways accept it first
  const accepted = new Set<string>();
  for (let i = 0; i < 6 && accepted.size < REPLICAS; i++) {
    const a = await graphql(access_token, CHEAP_QUERY);
    if (a.status === 200 && !a.body.errors && a.instance) accepted.add(a.instance);
  }
  const revokedAt = Date.now();
  const response = await fetch(`${urls.sso}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: access_token }),
  });
  if (response.status !== 200)
    return {
      name: 'revocation refused by every gateway',
      ok: false,
      detail: `revoke: HTTP ${response.status}`,
    };
  const refusedAfter: Record<string, number> = {};
  const acceptedAfter: Record<string, number> = {};
  while (Date.now() - revokedAt < 5000) {
    const a = await graphql(access_token, CHEAP_QUERY);
    const instance = a.instance ?? '?';
    const refused =
      a.status === 401 || a.body.errors?.some((e) => /UNAUTH|REVOKED/i.test(e.extensions?.code ?? ''));
    if (refused) refusedAfter[instance] ??= Date.now() - revokedAt;
    else acceptedAfter[instance] = Date.now() - revokedAt;
    if (Object.keys(refusedAfter).length >= REPLICAS && Date.now() - revokedAt > 2500) break;
    await delay(20);
  }
  const late = Object.values(acceptedAfter).some((ms) => ms > 2000);
  const ok = Object.keys(refusedAfter).length >= REPLICAS && !late;
  return {
    name: 'revocation refused by every gateway within 2 s',
    ok,
    detail: `first refusal by instance (ms after revoke): ${JSON.stringify(refusedAfter)}; last acceptance: ${JSON.stringify(acceptedAfter)}`,
  };
}

async function checkSharedRateLimit(token: string): Promise<Outcome> {
  // The default budget (RATE_LIMIT_PER_MINUTE 600, burst 600) is one per user for all gateways.
  // Requests go out until every gateway has refused some: one shared bucket lets through its
  // burst, its refill meanwhile and a lease per gateway; a bucket per gateway would let through
  // about twice the burst.
  const cap = 4000;
  const byInstance: Record<string, { ok: number; limited: number }> = {};
  const started = Date.now();
  let sent = 0;
  const refusedEverywhere = () =>
    Object.keys(byInstance).length >= REPLICAS && Object.values(byInstance).every((s) => s.limited >= 20);
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (sent < cap && !refusedEverywhere()) {
        sent++;
        const a = await graphql(token, CHEAP_QUERY).catch(() => undefined);
        if (!a) continue;
        const slot = (byInstance[a.instance ?? '?'] ??= { ok: 0, limited: 0 });
        if (a.status === 429 || a.body.errors?.some((e) => e.extensions?.code === 'RATE_LIMITED'))
          slot.limited++;
        else slot.ok++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const allowed = Object.values(byInstance).reduce((n, s) => n + s.ok, 0);
  const bound = 600 + Math.ceil(seconds * 10) + REPLICAS * 16 + 40;
  return {
    name: 'rate limit shared by the gateways',
    ok: refusedEverywhere() && allowed <= bound,
    detail: `${sent} requests in ${seconds.toFixed(1)} s: ${allowed} allowed (one shared budget: at most ${bound}; a budget per gateway: about ${1200 + Math.ceil(seconds * 20)}), by instance ${JSON.stringify(byInstance)}`,
  };
}

/** Transactions committed in the platform's database on one PostgreSQL server. */
function committed(service: string): number {
  const out = execFileSync('docker', [
    'exec',
    containerOf(service),
    'psql',
    '-h',
    '/var/run/postgresql',
    '-U',
    'postgres',
    '-Atc',
    "select xact_commit from pg_stat_database where datname = 'postgres'",
  ]);
  return Number(out.toString().trim());
}

/** The subgraphs' reads go to the standby: its statistics count them (a share of both servers'). */
async function checkStandbyReads(token: string): Promise<Outcome> {
  const before = { primary: committed('postgres'), standby: committed('postgres-standby') };
  const sessions = execFileSync('docker', [
    'exec',
    containerOf('postgres-standby'),
    'psql',
    '-h',
    '/var/run/postgresql',
    '-U',
    'postgres',
    '-Atc',
    "select count(*) from pg_stat_activity where application_name like '%-reads'",
  ])
    .toString()
    .trim();
  let pages = 0;
  let pageId: string | null = null;
  let dropped = 0;
  do {
    // A connection the machine's load broke is asked again once (a read), and counted.
    const answer: GraphqlAnswer = await graphql(token, VEHICLES_PAGE, { pageId }).catch((error: Error) => {
      dropped++;
      log(
        `standby walk: ${error.message} (${String((error.cause as { code?: string })?.code)}); asked again`,
      );
      return graphql(token, VEHICLES_PAGE, { pageId });
    });
    if (answer.status !== 200 || answer.body.errors)
      throw new Error(JSON.stringify(answer.body).slice(0, 200));
    pageId = answer.body.data.devices.next;
    pages++;
  } while (pageId);
  // A backend publishes its statistics once idle for 10 s (PostgreSQL 15's cumulative statistics).
  await delay(11_000);
  const after = { primary: committed('postgres'), standby: committed('postgres-standby') };
  const standby = after.standby - before.standby;
  const primary = after.primary - before.primary;
  const share = standby / Math.max(1, standby + primary);
  return {
    name: 'reads served by the standby',
    ok: standby >= pages && Number(sessions) > 0,
    detail: `${pages} pages: ${standby} transactions on the standby, ${primary} on the primary (standby share ${(share * 100).toFixed(0)} %); read-pool sessions on the standby: ${sessions}${dropped ? `; ${dropped} request(s) asked again after a broken connection` : ''}`,
  };
}

/** Traffic at a steady pace under the user's rate limit; counts what fails. */
function traffic(
  kind: 'gateway' | 'sso' | { subgraph: string; port: number; secret: string },
  token: string,
) {
  let stop = false;
  let sent = 0;
  let failed = 0;
  const failures: string[] = [];
  /** undefined when answered, else what went wrong */
  const one = async (): Promise<string | undefined> => {
    try {
      if (kind === 'gateway') {
        const a = await graphql(token, CHEAP_QUERY);
        return a.status === 200 && !a.body.errors
          ? undefined
          : `${a.status} ${a.body.errors?.[0]?.extensions?.code ?? a.body.errors?.[0]?.message.slice(0, 60) ?? ''}`;
      }
      const r =
        kind === 'sso'
          ? await fetch(`${urls.sso}/.well-known/jwks.json`, { signal: AbortSignal.timeout(5000) })
          : await fetch(`http://127.0.0.1:${kind.port}/graphql`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${token}`,
                [GATEWAY_SECRET_HEADER]: kind.secret,
              },
              body: JSON.stringify({ query: '{ _service { sdl } }' }),
              signal: AbortSignal.timeout(5000),
            });
      await r.arrayBuffer();
      return r.ok ? undefined : `HTTP ${r.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const loop = (async () => {
    while (!stop) {
      sent++;
      const failure = await one();
      if (failure) {
        failed++;
        failures.push(failure);
      }
      // ~8 requests a second from this loop, under the default 600 a minute per user
      await delay(kind === 'gateway' ? 120 : 40);
    }
  })();
  return {
    async end() {
      stop = true;
      await loop;
      return { sent, failed, failures };
    },
  };
}

async function waitHealthy(url: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return Date.now() - started;
    } catch {
      // not up yet
    }
    await delay(50);
  }
  throw new Error(`${url} not healthy within ${timeoutMs} ms`);
}

async function waitBalancerUp(backend: string, server: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await haproxyUp())[backend]?.includes(server)) return Date.now() - started;
    await delay(100);
  }
  throw new Error(`${backend}/${server} not back in the balancer within ${timeoutMs} ms`);
}

interface KillFigure {
  service: string;
  sent: number;
  failed: number;
  /** container start to its /healthz answering */
  startMs: number;
  /** kill to the balancer sending to it again */
  recoveryMs: number;
  /** what the failed requests got */
  failures: string[];
}

/** `reuse`: checks the platform already running (no build, no fresh start), when iterating. */
export async function runChecks(options: { reuse?: boolean } = {}): Promise<boolean> {
  const t0 = Date.now();
  const outcomes: Outcome[] = [];
  const figures: string[] = [];
  if (!options.reuse) {
    log('building images (base images are kept when present)');
    const buildStarted = Date.now();
    await build();
    figures.push(
      `- build (base images kept when present): ${((Date.now() - buildStarted) / 1000).toFixed(0)} s`,
    );
    log('starting from empty volumes');
    await compose(['down', '--volumes', '--remove-orphans'], { quiet: true });
    const upMs = await up();
    figures.push(
      `- up from empty volumes (migrations and demo data included) to a query answered through the balancer: ${(upMs / 1000).toFixed(1)} s`,
    );
  }
  const imageBytes = Number(
    execFileSync('docker', ['image', 'inspect', '-f', '{{.Size}}', 'fleetgraph/platform']).toString(),
  );
  figures.push(`- image fleetgraph/platform: ${(imageBytes / 1e6).toFixed(0)} MB`);

  const manifests = await loadSubgraphManifests();
  const secrets = await ensureSecrets();
  const { access_token: token } = await signIn();

  const { access_token: cacheToken } = await signIn();
  for (const check of [
    checkSignInAndRefresh,
    () => checkCodeFlowAcrossSso(secrets.EXPLORER_CLIENT_SECRET as string),
    () => checkCursorWalk(token),
    checkRevocation,
    () => checkCacheFlush(cacheToken),
  ]) {
    const outcome = await check().catch((error: Error) => ({
      name: check.name,
      ok: false,
      detail: error.message,
    }));
    outcomes.push(outcome);
    log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.name}: ${outcome.detail}`);
  }
  const standby = await checkStandbyReads(token).catch((error: Error) => ({
    name: 'reads served by the standby',
    ok: false,
    detail: error.message,
  }));
  outcomes.push(standby);
  log(`${standby.ok ? 'ok  ' : 'FAIL'} ${standby.name}: ${standby.detail}`);
  // The drill: one replica of each service killed under traffic, then started again.
  const kills: KillFigure[] = [];
  const services = [
    { name: 'gateway', port: 4000 },
    { name: 'sso', port: 4100 },
    ...manifests.map((m) => ({ name: m.name, port: m.port })),
  ];
  for (const service of services) {
    const { access_token } = await signIn();
    const kind =
      service.name === 'gateway'
        ? ('gateway' as const)
        : service.name === 'sso'
          ? ('sso' as const)
          : { subgraph: service.name, port: service.port, secret: secrets.SUBGRAPH_SHARED_SECRET as string };
    const victim = instanceName(service.name, 1);
    const load = traffic(kind, access_token);
    await delay(2000);
    const killedAt = Date.now();
    await compose(['kill', victim], { quiet: true });
    await delay(3000);
    const startAt = Date.now();
    await compose(['start', victim], { quiet: true });
    const address = containerAddress(containerOf(victim));
    await waitHealthy(`http://${address}:${service.port}/healthz`, 120_000);
    const startMs = Date.now() - startAt;
    await waitBalancerUp(service.name, victim, 30_000);
    const recoveryMs = Date.now() - killedAt;
    await delay(1000);
    const { sent, failed, failures } = await load.end();
    kills.push({
      service: service.name,
      sent,
      failed,
      startMs,
      recoveryMs,
      failures: [...new Set(failures)],
    });
    log(
      `kill ${victim}: ${failed}/${sent} requests failed; started again in ${startMs} ms; back in the balancer ${recoveryMs} ms after the kill`,
    );
  }
  figures.push(
    '',
    '| killed replica | requests | failed (what they got) | start (container start to /healthz) | back in the balancer after the kill (3 s down on purpose) |',
    '|---|---|---|---|---|',
    ...kills.map(
      (k) =>
        `| ${instanceName(k.service, 1)} | ${k.sent} | ${k.failed}${k.failures.length ? ` (${k.failures.join('; ')})` : ''} | ${(k.startMs / 1000).toFixed(1)} s | ${(k.recoveryMs / 1000).toFixed(1)} s |`,
    ),
  );

  // The primary frozen, then thawed: bounded answers meanwhile, the time until answered again.
  {
    const { access_token } = await signIn();
    const freeze = await freezePrimary(access_token).catch((error: Error) => ({
      outcome: { name: 'primary frozen: bounded answers, then recovery', ok: false, detail: error.message },
      figures: [],
      samples: [],
    }));
    outcomes.push(freeze.outcome);
    figures.push(...freeze.figures);
    log(`${freeze.outcome.ok ? 'ok  ' : 'FAIL'} ${freeze.outcome.name}: ${freeze.outcome.detail}`);
  }

  // Redis stopped: the gateways degrade (local rate limits and caches) and keep answering.
  {
    const { access_token } = await signIn();
    const load = traffic('gateway', access_token);
    await delay(1000);
    await compose(['stop', 'redis'], { quiet: true });
    await delay(10_000);
    const during = await load.end();
    const signInWithoutRedis = await signIn().then(
      () => 'ok',
      (error: Error) => error.message,
    );
    await compose(['start', 'redis'], { quiet: true });
    const ok = during.failed < during.sent / 2;
    outcomes.push({
      name: 'Redis stopped: still serving',
      ok,
      detail: `${during.failed}/${during.sent} queries failed over 10 s without Redis; sign-in: ${signInWithoutRedis}`,
    });
    figures.push(
      '',
      `- Redis stopped for 10 s: ${during.failed}/${during.sent} queries failed; sign-in during the outage: ${signInWithoutRedis}`,
    );
    log(`Redis stopped: ${during.failed}/${during.sent} failed; sign-in ${signInWithoutRedis}`);
  }

  // Everything restarted: the data is kept in the volumes.
  {
    const { access_token } = await signIn();
    const countBefore = await countDevices(access_token);
    const restartStarted = Date.now();
    await compose(['stop'], { quiet: true });
    const restartMs = await up();
    const { access_token: again } = await signIn();
    const countAfter = await countDevices(again);
    const ok = countBefore > 0 && countAfter === countBefore;
    outcomes.push({
      name: 'restart everything: data kept',
      ok,
      detail: `${countBefore} devices before, ${countAfter} after; answering again ${((Date.now() - restartStarted) / 1000).toFixed(1)} s after the stop`,
    });
    figures.push(
      `- full stop and up again (data kept): a query answered ${(restartMs / 1000).toFixed(1)} s after up`,
    );
    log(`restart: ${countBefore} -> ${countAfter} devices`);
  }

  // Last, as it spends the demo user's budget (the drill's traffic stays under it).
  const { access_token: fresh } = await signIn();
  const limit = await checkSharedRateLimit(fresh).catch((error: Error) => ({
    name: 'rate limit shared by the gateways',
    ok: false,
    detail: error.message,
  }));
  outcomes.push(limit);
  log(`${limit.ok ? 'ok  ' : 'FAIL'} ${limit.name}: ${limit.detail}`);

  const body = [
    '### Checks (through the balanced addresses)',
    '',
    ...outcomes.map((o) => `- ${o.ok ? 'ok' : 'FAILED'}: ${o.name}: ${o.detail}`),
    '',
    '### Figures',
    '',
    ...figures,
    '',
    `- whole run: ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  ].join('\n');
  const file = writeResult('containers', 'npm run test:containers', body);
  console.log(body);
  log(`written to ${file}`);
  return outcomes.every((o) => o.ok);
}

async function countDevices(token: string): Promise<number> {
  let pageId: string | null = null;
  let n = 0;
  do {
    const answer: GraphqlAnswer = await graphql(
      token,
      VEHICLES_PAGE.replace('pageSize: 7', 'pageSize: 500'),
      { pageId },
    );
    if (answer.status !== 200 || answer.body.errors)
      throw new Error(JSON.stringify(answer.body).slice(0, 200));
    n += answer.body.data.devices.list.length;
    pageId = answer.body.data.devices.next;
  } while (pageId);
  return n;
}
