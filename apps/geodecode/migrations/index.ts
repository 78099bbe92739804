import type { Migrations } from '@fleetgraph/db';
import * as streets from './20261122_001_streets';

export const GEO_SCHEMA = 'geo';
export const migrations: Migrations = {
  '20261122_001_streets': streets,
};
