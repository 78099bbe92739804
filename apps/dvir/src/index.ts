export { buildApp, SCHEMA_DIR } from './app';
export { loadDvirConfig, type DvirConfig } from './config';
export { DVIR_SCHEMA, migrations } from '../migrations/index';
