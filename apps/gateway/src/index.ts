export { buildApp, type GatewayBuildOptions } from './app';
export { loadGatewayConfig, type GatewayConfig } from './config';
export { subgraphsOf } from './resilience/supergraph';
