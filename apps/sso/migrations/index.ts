import type { Migrations } from '@fleetgraph/db';
import * as initial from './20261122_001_sso';
import * as applications from './20261122_002_applications';
import * as liveTokenIndexes from './20261123_003_live_token_indexes';

export const SSO_SCHEMA = 'sso';
export const migrations: Migrations = {
  '20261122_001_sso': initial,
  '20261122_002_applications': applications,
  '20261123_003_live_token_indexes': liveTokenIndexes,
};
