import type { Migrations } from '@fleetgraph/db';
import * as core from './20261122_001_core';

export const FLEET_SCHEMA = 'fleet';
export const migrations: Migrations = {
  '20261122_001_core': core,
};
