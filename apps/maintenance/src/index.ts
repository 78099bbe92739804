export { buildApp, SCHEMA_DIR } from './app';
export { loadMaintenanceConfig, type MaintenanceConfig } from './config';
export { MAINTENANCE_SCHEMA, migrations } from '../migrations/index';
export * from './domain/upcoming';
export { CATALOG, simulateHistory } from './demo/seed';
export { vehicleFacts, vehicleFactsQuery } from './data/tables';
export { refreshUpcoming } from './data/upcoming-store';
export { createReader } from './reader';
export { resolvers } from './resolvers/index';
