export { buildApp, SCHEMA_DIR } from './app';
export { loadMobilityConfig, type MobilityConfig } from './config';
export { MOBILITY_SCHEMA, migrations } from '../migrations/index';
export { detectTransactions, reevaluate, reviewAnomaly } from './domain/detection/engine';
export { RULE_CODES } from './domain/detection/rules';
