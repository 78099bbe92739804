export { buildApp, SCHEMA_DIR, type BuildOptions } from './app';
export { loadFleetCoreConfig } from './config';
export { FLEET_SCHEMA, migrations } from '../migrations/index';
