import { resolveDatabase } from '@fleetgraph/db';
import { dataDir, onShutdown } from '@fleetgraph/service-kit';
import { buildApp } from './app';
import { loadVehicleDataConfig } from './config';

const config = loadVehicleDataConfig();
const database = await resolveDatabase({
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  dataDir,
});
const app = await buildApp({ ...config, databaseUrl: database.url }, { seed: true });
await app.listen({ port: config.port, host: config.host });
onShutdown(async () => {
  await app.close();
  await database.stop();
});
