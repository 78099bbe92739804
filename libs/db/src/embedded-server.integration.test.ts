/**
 * The embedded server through its real binaries: it runs in a session of its own, so a Ctrl-C to
 * its starter's process group does not reach it and the starter stops it when it is done; it
 * never outlives its starter, even one killed outright; its superuser's password is random, on
 * file for the tools, and a cluster of an older start loses the well-known one.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { freePort } from '@fleetgraph/testing';
import { embeddedClusterDir, embeddedUrl, startEmbeddedPostgres } from './embedded';
import { embeddedPasswordFile, WELL_KNOWN_PASSWORD } from './embedded-password';
import { embeddedBinaries, initialiseCluster, serverUser } from './embedded-server';
import { resolveDatabase } from './resolve';

const linux = process.platform === 'linux';
const dirs: string[] = [];
const pids: number[] = [];
after(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-embedded-'));
  dirs.push(dir);
  return dir;
}

/** The server's pid, from PostgreSQL's own postmaster.pid. */
function postmasterPid(dir: string): number {
  const pid = Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  pids.push(pid);
  return pid;
}

/** An embedded server started in this process on a new data folder, with its pid. */
async function startedServer() {
  const dir = dataDir();
  const database = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
  return { dir, database, pid: postmasterPid(dir) };
}

/** The session a process belongs to (/proc/<pid>/stat: state, ppid, pgrp, session after the name). */
function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // the `postgres` user's, as root
  }
}

/**
 * Resolves once `file` is gone, told by the folder's change events (no polling): PostgreSQL
 * removes postmaster.pid as the last step of its shutdown.
 */
function removed(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(file), () => {
      if (existsSync(file)) return;
      watcher.close();
      resolve();
    });
    if (!existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

test(
  'the embedded server answers in a session of its own until its owner stops it',
  { skip: !linux },
  async () => {
    const { dir, database, pid } = await startedServer();
    const client = new pg.Client(database.url);
    await client.connect();
    const { rows } = await client.query<{ encoding: string }>(
      `select current_setting('server_encoding') as encoding`,
    );
    await client.end();
    assert.deepEqual(rows, [{ encoding: 'UTF8' }]);

    assert.notEqual(sessionOf(pid), sessionOf(process.pid), 'the server runs in a session of its own');

    await database.stop();
    assert.equal(alive(pid), false, 'stop() resolves once the server has exited');
    assert.equal(existsSync(join(dir, 'pg', 'postmaster.pid')), false);
  },
);

test(
  'a starter killed outright (SIGKILL) takes its embedded server down',
  { skip: !linux, timeout: 30_000 },
  async () => {
    const dir = dataDir();
    const script = [
      `const { startEmbeddedPostgres } = await import(${JSON.stringify(new URL('./embedded.ts', import.meta.url).href)});`,
      `await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dir)}, port: ${await freePort()} });`,
      `console.log('ready');`,
      `setInterval(() => {}, 1_000);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      void ended.then(({ code, signal }) => reject(new Error(`the starter ended first: ${code ?? signal}`)));
    });
    postmasterPid(dir); // known to after(), which kills a server this test leaked

    child.kill('SIGKILL'); // no handler, no exit event: only the OS closing its pipes
    assert.deepEqual(await ended, { code: null, signal: 'SIGKILL' });
    await removed(join(dir, 'pg', 'postmaster.pid')); // the server's last step; a leak times out
    assert.equal(existsSync(join(dir, 'pg', 'postmaster.pid')), false, 'a clean shutdown');
  },
);

test(
  'a server restarted behind its keeper (pg_ctl restart, as npm run fault does) is stopped too',
  { skip: !linux },
  async () => {
    const { dir, database, pid: first } = await startedServer();
    const { pg_ctl } = await embeddedBinaries();
    const log = join(dir, 'pg', 'restart.log');
    execFileSync(pg_ctl, ['restart', '-D', join(dir, 'pg'), '-m', 'fast', '-w', '-l', log], {
      ...(await serverUser()),
      stdio: 'ignore',
    });
    const second = postmasterPid(dir);
    assert.notEqual(second, first, 'a new server holds the cluster');

    await database.stop();
    assert.equal(existsSync(join(dir, 'pg', 'postmaster.pid')), false, 'stop() waited for its shutdown');
  },
);

/** The error code PostgreSQL answers a sign-in with (undefined: signed in). */
async function signInCode(url: string): Promise<string | undefined> {
  const client = new pg.Client(url);
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const portOf = (url: string) => Number(new URL(url).port);

test(
  'a new cluster gets a random superuser password, on file for its owner only; the well-known one is refused over TCP',
  { skip: !linux },
  async () => {
    const { dir, database } = await startedServer();
    try {
      const file = embeddedPasswordFile(dir);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(dir, 'secrets')).mode & 0o777, 0o700);
      const password = readFileSync(file, 'utf8').trim();
      assert.ok(password.length >= 32 && password !== WELL_KNOWN_PASSWORD);
      const port = portOf(database.url);
      assert.equal(
        await signInCode(embeddedUrl(port, WELL_KNOWN_PASSWORD)),
        '28P01',
        'postgres/postgres over TCP',
      );
      assert.equal(await signInCode(embeddedUrl(port, password)), undefined, 'psql with the file works');
      assert.equal(await signInCode(database.url), undefined);
      // Another tool on the same data folder (the admin CLI, the importer) finds the password.
      const found = await resolveDatabase({ dataDir: dir });
      assert.equal(await signInCode(found.url), undefined);
    } finally {
      await database.stop();
    }
  },
);

test(
  'a cluster an older start made with the well-known password gets a random one at its next start',
  { skip: !linux, timeout: 60_000 },
  async () => {
    const dir = dataDir();
    chmodSync(dir, 0o755); // as startEmbeddedPostgres does: the server's user enters it as root
    await initialiseCluster({
      clusterDir: embeddedClusterDir(dir),
      user: await serverUser(),
      log: () => {},
      password: WELL_KNOWN_PASSWORD,
    });
    assert.equal(existsSync(embeddedPasswordFile(dir)), false);
    const database = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
    postmasterPid(dir);
    try {
      const password = readFileSync(embeddedPasswordFile(dir), 'utf8').trim();
      assert.notEqual(password, WELL_KNOWN_PASSWORD);
      const port = portOf(database.url);
      assert.equal(await signInCode(embeddedUrl(port, WELL_KNOWN_PASSWORD)), '28P01');
      assert.equal(await signInCode(embeddedUrl(port, password)), undefined);
    } finally {
      await database.stop();
    }
    // An interrupted rotation (password set in the server, file still pending) is finished.
    const password = readFileSync(embeddedPasswordFile(dir), 'utf8');
    rmSync(embeddedPasswordFile(dir));
    writeFileSync(`${embeddedPasswordFile(dir)}.next`, password, { mode: 0o600 });
    const again = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
    postmasterPid(dir);
    try {
      assert.equal(readFileSync(embeddedPasswordFile(dir), 'utf8'), password);
      assert.equal(existsSync(`${embeddedPasswordFile(dir)}.next`), false);
      assert.equal(await signInCode(again.url), undefined);
    } finally {
      await again.stop();
    }
  },
);
