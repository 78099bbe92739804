export { buildApp, SCHEMA_DIR, type BuildOptions } from './app';
export { loadFleetCoreConfig } from './config';
export { FLEET_SCHEMA, migrations } from '../migrations/index';
export { DEMO_EMAIL, DEMO_PASSWORD, DEMO_FULL_NAME } from './demo/seed';
// The demo generator and the JSON import (behind the manifest's hooks; tools/seed and the
// benchmarks call them directly).
export {
  seedDemo,
  isSeeded,
  DEFAULT_TRIPS_PER_DEVICE,
  MAX_SCALE,
  seedActivity,
  COUNTED_TABLES,
  emptyCounts,
  formatCounts,
  type SeedOptions,
  type SeedSummary,
  type SeedLogin,
  type SeedAccount,
  type DeviceActivity,
  type ActivityCounts,
  type TableCounts,
} from './demo/index';
export { insertInBatches, countRows, BATCH_SIZE } from './demo/write';
export {
  importDataset,
  validateDataset,
  ImportError,
  datasetSchema,
  type ImportSummary,
  type ImportOptions,
  type ImportedAccount,
  type SignInConflicts,
  type Dataset,
  type DatasetInput,
} from './import/index';
// What tools/seed's integration tests check the demo and the import against.
export * as datasetActivity from './import/dataset-activity';
export * as datasetServices from './import/dataset-services';
export { VEHICLE_TYPES } from './demo/enums';
export { hasValidVinCheckDigit, isValidImei } from './demo/ids';
export { CITY_CENTRES } from './demo/geo';
