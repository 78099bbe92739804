import type { Migrations } from '@fleetgraph/db';
import * as initial from './20261122_001_vehicle_data';

export const VEHICLE_DATA_SCHEMA = 'vehicle_data';
export const migrations: Migrations = {
  '20261122_001_vehicle_data': initial,
};
