import type { Migrations } from '@fleetgraph/db';
import * as initial from './20261122_001_sso';

export const SSO_SCHEMA = 'sso';
export const migrations: Migrations = {
  '20261122_001_sso': initial,
};
