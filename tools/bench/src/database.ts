/** A throwaway database for a benchmark: on DATABASE_URL's server, else on an embedded one. */
import { join } from 'node:path';
import { createTestDatabase, startEmbeddedPostgres } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';

export async function benchDatabase(
  label: string,
  options: { statementStatistics?: boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  let stopServer = async () => {};
  if (!process.env.DATABASE_URL) {
    const server = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'bench'),
      port: Number(process.env.EMBEDDED_PG_BENCH_PORT ?? 54331),
      // pg_stat_statements (shipped with the embedded server) for PostgreSQL time per request.
      ...(options.statementStatistics
        ? {
            settings: {
              shared_preload_libraries: 'pg_stat_statements',
              'pg_stat_statements.track_planning': 'on',
            },
          }
        : {}),
    });
    process.env.DATABASE_URL = server.url;
    stopServer = async () => {
      await server.stop();
      // A later benchmark database of this run starts its own server instead of this stopped one.
      delete process.env.DATABASE_URL;
    };
  }
  const database = await createTestDatabase(label);
  return {
    url: database.url,
    async close() {
      await database.drop();
      await stopServer();
    },
  };
}
