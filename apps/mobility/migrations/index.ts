import type { Migrations } from '@fleetgraph/db';
import * as core from './20261123_001_mobility';

export const MOBILITY_SCHEMA = 'mobility';
export const migrations: Migrations = {
  '20261123_001_mobility': core,
};
