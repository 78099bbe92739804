import type { Migrations } from '@fleetgraph/db';
import * as initial from './20261123_001_maintenance';

export const MAINTENANCE_SCHEMA = 'maintenance';
export const migrations: Migrations = {
  '20261123_001_maintenance': initial,
};
