/** A throwaway database for a benchmark: on DATABASE_URL's server, else on an embedded one. */
import { join } from 'node:path';
import { createTestDatabase, startEmbeddedPostgres } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';

export async function benchDatabase(label: string): Promise<{ url: string; close(): Promise<void> }> {
  let stopServer = async () => {};
  if (!process.env.DATABASE_URL) {
    const server = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'bench'),
      port: Number(process.env.EMBEDDED_PG_BENCH_PORT ?? 54331),
    });
    process.env.DATABASE_URL = server.url;
    stopServer = server.stop;
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
