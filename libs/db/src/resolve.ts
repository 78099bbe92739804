/**
 * Which database to use: DATABASE_URL when set, else the embedded server (started here).
 */
import { startEmbeddedPostgres, EMBEDDED_DEFAULT_PORT } from './embedded';

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
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.embeddedPort ?? EMBEDDED_DEFAULT_PORT,
    ...(options.log ? { log: options.log } : {}),
  });
  return { url: server.url, embedded: true, stop: server.stop };
}
