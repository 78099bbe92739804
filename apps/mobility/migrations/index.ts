import type { Migrations } from '@fleetgraph/db';
import * as core from './20261123_001_mobility';
import * as previousFill from './20261126_002_previous_fill_index';
import * as anomaliesOrgOrder from './20261126_003_anomalies_org_order';
import * as groupStatistics from './20261128_004_group_statistics';

export const MOBILITY_SCHEMA = 'mobility';
export const migrations: Migrations = {
  '20261123_001_mobility': core,
  '20261126_002_previous_fill_index': previousFill,
  '20261126_003_anomalies_org_order': anomaliesOrgOrder,
  '20261128_004_group_statistics': groupStatistics,
};
