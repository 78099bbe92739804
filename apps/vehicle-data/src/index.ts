export { buildApp, SCHEMA_DIR, type BuildOptions } from './app';
export { loadVehicleDataConfig, type VehicleDataConfig } from './config';
export { seedVehicleData } from './seed';
export { VEHICLE_DATA_SCHEMA, migrations } from '../migrations/index';
