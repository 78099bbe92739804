import { resolveDatabase } from '@fleetgraph/db';
import { dataDir, onShutdown } from '@fleetgraph/service-kit';
import { buildApp } from './app';
import { loadFleetCoreConfig } from './config';

const config = loadFleetCoreConfig();
const database = await resolveDatabase({
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  dataDir,
});
const app = await buildApp({ ...config, databaseUrl: database.url });
await app.listen({ port: config.port, host: config.host });
onShutdown(async () => {
  await app.close();
  await database.stop();
});
