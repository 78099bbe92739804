import type { Migrations } from '@fleetgraph/db';
import * as dvir from './20261123_001_dvir';

export const DVIR_SCHEMA = 'dvir';
export const migrations: Migrations = {
  '20261123_001_dvir': dvir,
};
