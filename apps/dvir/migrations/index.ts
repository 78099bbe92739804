import type { Migrations } from '@fleetgraph/db';
import * as dvir from './20261123_001_dvir';
import * as reportsOrgOrder from './20261126_002_reports_org_order';
import * as answerTranslationsJson from './20261127_003_answer_translations_json';

export const DVIR_SCHEMA = 'dvir';
export const migrations: Migrations = {
  '20261123_001_dvir': dvir,
  '20261126_002_reports_org_order': reportsOrgOrder,
  '20261127_003_answer_translations_json': answerTranslationsJson,
};
