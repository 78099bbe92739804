import type { Migrations } from '@fleetgraph/db';
import * as core from './20261122_001_core';
import * as driversTrips from './20261122_002_drivers_trips';
import * as readingsAnon from './20261122_004_readings_anon';
import * as services from './20261122_003_services';
import * as keysetTimesMs from './20261122_005_keyset_times_ms';
import * as contractV1 from './20261123_006_contract_v1';
import * as contractReadOnly from './20261123_007_contract_read_only';
import * as latestOdometer from './20261126_008_latest_odometer';
import * as dailyDistance from './20261126_009_daily_distance';
import * as devicesOrgOrder from './20261126_010_devices_org_order';
import * as contractAccountGroups from './20261126_011_contract_account_groups';
import * as driversOrgOrder from './20261126_012_drivers_org_order';
import * as startedDistance from './20261128_013_started_distance';
import * as vehiclesOrgOrder from './20261128_014_vehicles_org_order';

export const FLEET_SCHEMA = 'fleet';
export const migrations: Migrations = {
  '20261122_001_core': core,
  '20261122_002_drivers_trips': driversTrips,
  '20261122_003_services': services,
  '20261122_004_readings_anon': readingsAnon,
  '20261122_005_keyset_times_ms': keysetTimesMs,
  '20261123_006_contract_v1': contractV1,
  '20261123_007_contract_read_only': contractReadOnly,
  '20261126_008_latest_odometer': latestOdometer,
  '20261126_009_daily_distance': dailyDistance,
  '20261126_010_devices_org_order': devicesOrgOrder,
  '20261126_011_contract_account_groups': contractAccountGroups,
  '20261126_012_drivers_org_order': driversOrgOrder,
  '20261128_013_started_distance': startedDistance,
  '20261128_014_vehicles_org_order': vehiclesOrgOrder,
};
