/**
 * Which database to use: DATABASE_URL when set, else the embedded server (started here).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedPostgres, EMBEDDED_DEFAULT_PORT, embeddedClusterDir, embeddedUrl } from './embedded';
import { requireEmbeddedPassword } from './embedded-password';

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function resolveDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  embeddedPort?: number;
  log?: (line: string) => void;
}): Promise<ResolvedDatabase> {
  if (options.databaseUrl) {
    return { url: options.databaseUrl, embedded: false, stop: async () => {} };
  }
  const running = runningEmbeddedServer(options.dataDir);
  if (running !== undefined) {
    // Another process (`npm start`) holds the data folder: use its server, never stop it.
    const password = requireEmbeddedPassword(options.dataDir);
    return {
      url: embeddedUrl(running.port, password, running.socketDir),
      embedded: true,
      stop: async () => {},
    };
  }
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.embeddedPort ?? EMBEDDED_DEFAULT_PORT,
    ...(options.log ? { log: options.log } : {}),
  });
  return { url: server.url, embedded: true, stop: server.stop };
}

/**
 * The embedded server already running on this data folder, from PostgreSQL's own `postmaster.pid`
 * (line 1: the pid, line 4: the port, line 5: the first socket folder), if that process is alive;
 * its socket folder only when it is the cluster folder (startEmbeddedPostgres puts it there).
 */
export function runningEmbeddedServer(dataDir: string): { port: number; socketDir?: string } | undefined {
  const clusterDir = embeddedClusterDir(dataDir);
  let lines: string[];
  try {
    lines = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but another user's (the `postgres` system user when run as root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return lines[4]?.trim() === clusterDir ? { port, socketDir: clusterDir } : { port };
}
