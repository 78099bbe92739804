// The demo generator and the JSON import live in fleet-core (apps/fleet-core/src/demo, import);
// these re-exports keep `@fleetgraph/seed` importers working while they move to the orchestrator.
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
export { datasetSchema, type Dataset, type DatasetInput, seedActivity } from '@fleetgraph/fleet-core';
export { type DeviceActivity, type ActivityCounts } from '@fleetgraph/fleet-core';
export { formatCounts, type TableCounts } from './counts';
export {
  seedDemoData,
  migrateAll,
  startOfUtcDay,
  type OrchestrateOptions,
  type OrchestrateSummary,
} from './orchestrate';
