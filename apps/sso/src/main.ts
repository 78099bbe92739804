import { createRevocationList } from '@fleetgraph/auth';
import { resolveDatabase } from '@fleetgraph/db';
import { dataDir, onShutdown } from '@fleetgraph/service-kit';
import { buildApp } from './app';
import { loadSsoConfig } from './config';

const config = loadSsoConfig();
const database = await resolveDatabase({
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  dataDir,
});
const revocations = createRevocationList(
  config.redisUrl ? { redisUrl: config.redisUrl, keyPrefix: config.revocationPrefix } : {},
);
const app = await buildApp({ ...config, databaseUrl: database.url }, { revocations });
await app.listen({ port: config.port, host: config.host });
onShutdown(async () => {
  await app.close();
  await revocations.close();
  await database.stop();
});
