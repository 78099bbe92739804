export {
  seedDemo,
  isSeeded,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_FULL_NAME,
  type SeedOptions,
  type SeedSummary,
  type SeedLogin,
} from './seed';
export { importDataset, validateDataset, ImportError, type ImportSummary } from './import';
export { datasetSchema, type Dataset, type DatasetInput } from './dataset';
export { formatCounts, type TableCounts } from './enums';
export { seedActivity, type DeviceActivity, type ActivityCounts } from './activity';
export {
  seedDemoData,
  migrateAll,
  startOfUtcDay,
  type OrchestrateOptions,
  type OrchestrateSummary,
} from './orchestrate';
