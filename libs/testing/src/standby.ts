/**
 * A real PostgreSQL primary with a streaming hot standby, for tests of reads from a standby: a
 * small cluster made with initdb, copied with pg_basebackup (-R: the copy follows the primary),
 * both servers on their own ports in a scratch folder, stopped when the test ends (or when its
 * process exits). Needs the server binaries of a PostgreSQL installation (Debian's
 * /usr/lib/postgresql/<version>/bin, or POSTGRES_BIN_DIR): `replicatedPostgresBinaries()` says
 * whether they are there, so a test can skip where they are not.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports';
import { scratchDir } from './scratch';

const run = promisify(execFile);

/**
 * PostgreSQL refuses to run as root: as root, the servers run as the `postgres` system user (the
 * PostgreSQL installation made it; libs/db's embedded server makes it where it is missing).
 */
async function serverUser(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
const TOOLS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];

/** The folder of a PostgreSQL installation's server binaries (the newest), if any. */
export function replicatedPostgresBinaries(): string | undefined {
  const candidates = process.env.POSTGRES_BIN_DIR
    ? [process.env.POSTGRES_BIN_DIR]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter((v) => /^\d+$/.test(v))
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => join('/usr/lib/postgresql', v, 'bin'))
      : [];
  return candidates.find((dir) => TOOLS.every((tool) => existsSync(join(dir, tool))));
}

export interface ReplicatedPostgres {
  /** Superuser URLs of the `postgres` database on each server (trust authentication, loopback only). */
  primaryUrl: string;
  standbyUrl: string;
  /** The URL of another database on a server. */
  urlOf(server: 'primary' | 'standby', database: string): string;
  /** Stops applying the primary's changes on the standby: the standby lags until resumed. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function query(url: string, text: string): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = replicatedPostgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries (initdb, pg_basebackup): set POSTGRES_BIN_DIR');
  const user = await serverUser();
  const as = user.uid !== undefined ? { uid: user.uid, gid: user.gid } : {};
  const base = scratchDir('fleetgraph-standby');
  if (user.uid !== undefined && user.gid !== undefined) chownSync(base, user.uid, user.gid);
  const exec = (tool: string, args: string[]) =>
    run(join(bin, tool), args, { ...as, cwd: base, env: { ...process.env, LC_ALL: 'C' } });
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primaryDir = join(base, 'primary');
  const standbyDir = join(base, 'standby');
  // Small and fast: nothing here needs to survive a crash.
  const common = `-k ${base} -c listen_addresses=127.0.0.1 -c shared_buffers=16MB -c fsync=off -c full_page_writes=off`;
  const started: string[] = [];
  const stopSync = () => {
    for (const dir of started)
      try {
        execFileSync(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'immediate', 'stop'], { ...as, stdio: 'ignore' });
      } catch {
        // already stopped
      }
    started.length = 0;
  };
  process.once('exit', stopSync);
  try {
    await exec('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await exec('pg_ctl', [
      '-D',
      primaryDir,
      '-l',
      join(base, 'primary.log'),
      '-w',
      '-o',
      `-p ${primaryPort} ${common} -c wal_level=replica -c max_wal_senders=4`,
      'start',
    ]);
    started.push(primaryDir);
    await exec('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    await exec('pg_ctl', [
      '-D',
      standbyDir,
      '-l',
      join(base, 'standby.log'),
      '-w',
      '-o',
      `-p ${standbyPort} ${common} -c hot_standby=on`,
      'start',
    ]);
    started.push(standbyDir);
  } catch (error) {
    stopSync();
    throw error;
  }
  const urlOf = (server: 'primary' | 'standby', database: string) =>
    `postgres://postgres@127.0.0.1:${server === 'primary' ? primaryPort : standbyPort}/${database}`;
  const primaryUrl = urlOf('primary', 'postgres');
  const standbyUrl = urlOf('standby', 'postgres');
  return {
    primaryUrl,
    standbyUrl,
    urlOf,
    pauseReplay: async () => void (await query(standbyUrl, 'select pg_wal_replay_pause()')),
    resumeReplay: async () => void (await query(standbyUrl, 'select pg_wal_replay_resume()')),
    async caughtUp(timeoutMs = 10_000) {
      const [{ lsn }] = await query(primaryUrl, 'select pg_current_wal_lsn()::text as lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [{ done }] = await query(
          standbyUrl,
          `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`,
        );
        if (done) return;
        if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${lsn}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      process.removeListener('exit', stopSync);
      for (const dir of started.splice(0).reverse())
        await exec('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    },
  };
}
