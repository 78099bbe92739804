import type { Migrations } from '@fleetgraph/db';
import * as initial from './20261122_001_sso';
import * as applications from './20261122_002_applications';
import * as liveTokenIndexes from './20261123_003_live_token_indexes';
import * as revocationContract from './20261124_004_revocation_contract';
import * as applicationChanges from './20261124_005_application_changes';
import * as tokenWriteIndexes from './20261126_006_token_write_indexes';

export const SSO_SCHEMA = 'sso';
export { SSO_CONTRACT_SCHEMA, REVOCATION_CHANNEL } from './20261124_004_revocation_contract';
export const migrations: Migrations = {
  '20261122_001_sso': initial,
  '20261122_002_applications': applications,
  '20261123_003_live_token_indexes': liveTokenIndexes,
  '20261124_004_revocation_contract': revocationContract,
  '20261124_005_application_changes': applicationChanges,
  '20261126_006_token_write_indexes': tokenWriteIndexes,
};
