/**
 * The README's start command as a newcomer runs it: `npm start` with no DATABASE_URL starts an
 * embedded PostgreSQL, prints the banner, the printed curl commands work, the README's first
 * query works as written, Ctrl-C stops cleanly, and a second start reuses the data without seeding
 * again.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { embeddedPasswordFile } from '@fleetgraph/db';
import { devSecretsFile, repoRoot } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/testing';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';

const dataDir = mkdtempSync(join(tmpdir(), 'fleetgraph-start-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

async function npmStart(env: Record<string, string>, args: string[] = []): Promise<Started> {
  // As a newcomer runs it: no DATABASE_URL, and no NODE_ENV (the test runner's `test` turns off
  // behaviour a real start has, such as Apollo's own signal handlers).
  const { DATABASE_URL: _url, NODE_ENV: _env, ...parentEnv } = process.env;
  const child = spawn('npm', ['start', '--silent', ...(args.length > 0 ? ['--', ...args] : [])], {
    cwd: repoRoot,
    env: { ...parentEnv, ...env, FLEETGRAPH_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no banner within 120 s:\n${stdout}\n${stderr}`)),
      120_000,
    );
    const check = () => {
      if (stdout.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** Ctrl-C as a terminal sends it: SIGINT to the whole process group. */
async function stop(started: Started, pgPort: string): Promise<void> {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    started.child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  process.kill(-started.child.pid!, 'SIGINT');
  const { code, signal } = await exited;
  // npm itself ends by the signal (as under a terminal); our process must have closed everything.
  assert.ok(
    code === 0 || signal === 'SIGINT' || code === 130,
    `npm start ended with code ${code}, signal ${signal}`,
  );
  assert.doesNotMatch(started.stderr(), /shutdown failed|Error|terminating connection/, started.stderr());
  // The platform's close ran to its end: services, then the database (nothing cut it short).
  assert.match(started.stderr(), /SIGINT: shutting down\n(.*\n)*stopped\n/, started.stderr());
  await waitFor(
    () => !existsSync(join(dataDir, 'pg', 'postmaster.pid')),
    'PostgreSQL shut down (postmaster.pid removed)',
  );
  await waitFor(async () => !(await listening(Number(pgPort))), 'the database port is free again');
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not within 10 s: ${what}`);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A free port for the embedded database, the gateway, the SSO and every subgraph (by manifest). */
async function freePorts(): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    EMBEDDED_PG_PORT: String(await freePort()),
    GATEWAY_PORT: String(await freePort()),
    SSO_PORT: String(await freePort()),
  };
  for (const m of await loadSubgraphManifests()) env[`${m.envPrefix}_PORT`] = String(await freePort());
  return env;
}

/**
 * The platform's connections to its embedded server, by transport (PostgreSQL shows no client
 * address for a Unix socket), read over TCP as psql on the printed port would.
 */
async function platformConnections(pgPort: string): Promise<{ socket: number; tcp: number }> {
  // As the README tells a user to connect: the superuser's password from its file.
  const password = readFileSync(embeddedPasswordFile(dataDir), 'utf8').trim();
  const client = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/postgres`,
  });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select (count(*) filter (where client_addr is null))::int as socket,
              (count(*) filter (where client_addr is not null))::int as tcp
         from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** The README's first query (its bash block), aimed at this platform's ports. */
function readmeFirstQuery(env: Record<string, string>): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = /<!-- first-query:start -->\n```bash\n([\s\S]*?)```\n<!-- first-query:end -->/.exec(readme);
  assert.ok(block, 'README.md has its first query between the first-query markers');
  return block[1]!
    .replaceAll('http://localhost:4100', `http://localhost:${env.SSO_PORT}`)
    .replaceAll('http://localhost:4000', `http://localhost:${env.GATEWAY_PORT}`);
}

function pastedCommands(banner: string): string {
  const start = banner.indexOf('Get a token and query the graph:');
  const end = banner.indexOf('Ctrl-C stops everything');
  return banner.slice(start, end).split('\n').slice(1).join('\n').trim();
}

test('npm start on a machine without a database: banner, working curl, clean Ctrl-C, data kept', async () => {
  const env = await freePorts();
  const first = await npmStart(env);
  try {
    const banner = first.stdout();
    assert.match(banner, new RegExp(`http://localhost:${env.GATEWAY_PORT}/graphql`));
    assert.match(banner, /Demo login\s+\S+@\S+ \/ \S+/);
    assert.match(first.stderr(), /first start: loading demo data/);
    const { stdout } = await promisify(execFile)('bash', ['-c', pastedCommands(banner)]);
    const body = JSON.parse(stdout);
    assert.equal(body.errors, undefined, stdout);
    assert.ok(body.data.account.fullName);
    assert.ok(body.data.account.groups.list.length > 0);
    const readme = JSON.parse((await promisify(execFile)('bash', ['-c', readmeFirstQuery(env)])).stdout);
    assert.equal(readme.errors, undefined, JSON.stringify(readme.errors));
    assert.ok(readme.data.devices.list.length > 0, 'the README query answers devices');
    assert.ok(readme.extensions.cost.requestedQueryCost > 0, 'and reports its cost');
    // Every service reaches the embedded database over its Unix socket in the cluster folder.
    assert.ok(
      existsSync(join(dataDir, 'pg', `.s.PGSQL.${env.EMBEDDED_PG_PORT}`)),
      'the socket is in the cluster folder',
    );
    const connections = await platformConnections(env.EMBEDDED_PG_PORT as string);
    // Generated secrets live in the secrets folder, owner only; dvir's file-URL key is its own.
    assert.equal(statSync(join(dataDir, 'secrets')).mode & 0o777, 0o700);
    const secrets = JSON.parse(readFileSync(devSecretsFile(dataDir), 'utf8'));
    assert.ok(secrets.declared.DVIR_FILE_URL_SECRET?.length >= 32, JSON.stringify(Object.keys(secrets)));
    assert.ok(
      ![secrets.pagingSecret, secrets.subgraphSecret].includes(secrets.declared.DVIR_FILE_URL_SECRET),
    );
    // The well-known superuser password of an older start is refused over TCP.
    const wellKnown = new pg.Client(
      `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/postgres`,
    );
    await assert.rejects(wellKnown.connect(), (error: { code?: string }) => error.code === '28P01');
    await wellKnown.end().catch(() => {});
    assert.ok(connections.socket > 0, JSON.stringify(connections));
    assert.equal(connections.tcp, 0, JSON.stringify(connections));
    // The admin CLI, as documented, works against the running platform's embedded database.
    const { DATABASE_URL: _none, ...cliEnv } = process.env;
    const cli = await promisify(execFile)('npx', ['tsx', 'apps/sso/src/cli.ts', 'app', 'list'], {
      cwd: repoRoot,
      env: { ...cliEnv, FLEETGRAPH_DATA_DIR: dataDir },
    });
    assert.match(cli.stdout, /Fleetgraph explorer/, cli.stdout + cli.stderr);
  } finally {
    await stop(first, env.EMBEDDED_PG_PORT as string);
  }

  const second = await npmStart(env);
  try {
    assert.doesNotMatch(
      second.stderr(),
      /first start: loading demo data/,
      'demo data is loaded on the first start only',
    );
    const { stdout } = await promisify(execFile)('bash', ['-c', pastedCommands(second.stdout())]);
    assert.ok(JSON.parse(stdout).data.account.fullName);
  } finally {
    await stop(second, env.EMBEDDED_PG_PORT as string);
  }
});

test('npm start -- --processes: every service in its own process, the same graph', async () => {
  const env = await freePorts();
  const started = await npmStart(env, ['--processes']);
  try {
    const pids = [...started.stderr().matchAll(/^(\S+): process (\d+)$/gm)].map((m) => [m[1], Number(m[2])]);
    const manifests = await loadSubgraphManifests();
    assert.deepEqual(
      pids.map(([name]) => name).sort(),
      ['gateway', 'sso', ...manifests.map((m) => m.name)].sort(),
      started.stderr(),
    );
    assert.equal(new Set(pids.map(([, pid]) => pid)).size, pids.length, 'one process per service');
    const { stdout } = await promisify(execFile)('bash', ['-c', pastedCommands(started.stdout())]);
    const body = JSON.parse(stdout);
    assert.equal(body.errors, undefined, stdout);
    assert.ok(body.data.account.groups.list.length > 0);
  } finally {
    await stop(started, env.EMBEDDED_PG_PORT as string);
  }
});
