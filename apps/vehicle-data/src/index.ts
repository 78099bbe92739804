export { default as manifest } from './manifest';
export { buildApp, SCHEMA_DIR } from './app';
export { loadVehicleDataConfig, type VehicleDataConfig } from './config';
export { seedVehicleData, vehicleDataSeeded } from './demo/seed';
export { VEHICLE_DATA_SCHEMA, migrations } from '../migrations/index';
