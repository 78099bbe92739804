import type { Migrations } from '@fleetgraph/db';
import * as initial from './20261123_001_maintenance';
import * as serviceSummaries from './20261126_002_service_summaries';
import * as summaryJson from './20261126_003_summary_json';
import * as upcomingWork from './20261128_004_upcoming_work';

export const MAINTENANCE_SCHEMA = 'maintenance';
export const migrations: Migrations = {
  '20261123_001_maintenance': initial,
  '20261126_002_service_summaries': serviceSummaries,
  '20261126_003_summary_json': summaryJson,
  '20261128_004_upcoming_work': upcomingWork,
};
