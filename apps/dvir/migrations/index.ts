import type { Migrations } from '@fleetgraph/db';
import * as dvir from './20261123_001_dvir';
import * as reportsOrgOrder from './20261126_002_reports_org_order';

export const DVIR_SCHEMA = 'dvir';
export const migrations: Migrations = {
  '20261123_001_dvir': dvir,
  '20261126_002_reports_org_order': reportsOrgOrder,
};
