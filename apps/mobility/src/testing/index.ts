/** mobility's test kit, for its own tests and the gateway tests in tools/e2e (never app code). */
export { loadDataset, NOW } from './dataset';
export {
  ANOMALIES_QUERY,
  combinedFilterCase,
  expectedIds,
  filterCases,
  prepareAnomalies,
} from './filter-cases';
