import { onShutdown } from '@fleetgraph/service-kit';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';

const config = loadGatewayConfig();
const app = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
onShutdown(() => app.close());
