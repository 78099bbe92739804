/** The enumerations of the fleet schema (mirrors apps/fleet-core/src/schema/*.graphql). */
import { LANGUAGE_CODES, type LanguageCode } from '@fleetgraph/subgraph-kit';

export const HIERARCHY_LEVELS = ['COMPANY', 'REGION', 'DEPOT', 'TEAM', 'UNASSIGNED'] as const;
export const DEVICE_STATUSES = ['CONNECTED', 'DISCONNECTED', 'SLEEPING', 'NEVER_CONNECTED'] as const;
export const CONNECTION_REASONS = [
  'COLD_BOOT',
  'WARM_BOOT',
  'WAKE_UP',
  'NETWORK_RECOVERY',
  'UNKNOWN',
] as const;
export const DISCONNECTION_REASONS = [
  'UNKNOWN_SERVER_REASON',
  'POWER_LOSS',
  'SLEEP',
  'NETWORK_LOSS',
  'DEVICE_CLOSED',
] as const;
export const FUEL_TYPES = [
  'GASOLINE',
  'DIESEL',
  'ELECTRIC',
  'HYBRID',
  'PLUGIN_HYBRID',
  'LPG',
  'CNG',
  'HYDROGEN',
  'OTHER',
] as const;
export const VEHICLE_TYPES = [
  'CAR',
  'VAN',
  'LIGHT_TRUCK',
  'HEAVY_TRUCK',
  'BUS',
  'MOTORCYCLE',
  'TRAILER',
  'MACHINE',
  'OTHER',
] as const;
export const PRODUCT_NETWORKS = [
  'CELLULAR_2G',
  'CELLULAR_3G',
  'CELLULAR_4G',
  'LTE_M',
  'NB_IOT',
  'CELLULAR_5G',
] as const;
export const PRODUCT_MARKETS = ['EU', 'NA', 'LATAM', 'APAC', 'MEA', 'GLOBAL'] as const;
/** The shared `Language` enum (libs/subgraph-kit/sdl/shared.graphql). */
export const LANGUAGES = LANGUAGE_CODES;

export type HierarchyLevel = (typeof HIERARCHY_LEVELS)[number];
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export type ConnectionReason = (typeof CONNECTION_REASONS)[number];
export type DisconnectionReason = (typeof DISCONNECTION_REASONS)[number];
export type FuelType = (typeof FUEL_TYPES)[number];
export type Language = LanguageCode;

/** Row counts per fleet table written by a seed or an import (the SSO's users are counted by the caller). */
export interface TableCounts {
  organizations: number;
  accounts: number;
  groups: number;
  groupParents: number;
  groupClosure: number;
  groupAccounts: number;
  products: number;
  vehicles: number;
  devices: number;
  groupDevices: number;
  groupVehicles: number;
  deviceVehicleSessions: number;
  drivers: number;
  groupDrivers: number;
  driverAuxiliaryDevices: number;
  driverVehicleSessions: number;
  trips: number;
  tripHarshes: number;
  tripOverspeeds: number;
  tripMetadata: number;
  deviceHistory: number;
  deviceFields: number;
  readings: number;
  batteryAnnotations: number;
}

export function emptyCounts(): TableCounts {
  return {
    organizations: 0,
    accounts: 0,
    groups: 0,
    groupParents: 0,
    groupClosure: 0,
    groupAccounts: 0,
    products: 0,
    vehicles: 0,
    devices: 0,
    groupDevices: 0,
    groupVehicles: 0,
    deviceVehicleSessions: 0,
    drivers: 0,
    groupDrivers: 0,
    driverAuxiliaryDevices: 0,
    driverVehicleSessions: 0,
    trips: 0,
    tripHarshes: 0,
    tripOverspeeds: 0,
    tripMetadata: 0,
    deviceHistory: 0,
    deviceFields: 0,
    readings: 0,
    batteryAnnotations: 0,
  };
}

/** The table behind each count, in insertion (foreign-key) order. */
export const COUNTED_TABLES: Record<keyof TableCounts, string> = {
  organizations: 'fleet.organizations',
  accounts: 'fleet.accounts',
  products: 'fleet.products',
  groups: 'fleet.groups',
  groupParents: 'fleet.group_parents',
  groupClosure: 'fleet.group_closure',
  groupAccounts: 'fleet.group_accounts',
  vehicles: 'fleet.vehicles',
  devices: 'fleet.devices',
  groupDevices: 'fleet.group_devices',
  groupVehicles: 'fleet.group_vehicles',
  deviceVehicleSessions: 'fleet.device_vehicle_sessions',
  drivers: 'fleet.drivers',
  groupDrivers: 'fleet.group_drivers',
  driverAuxiliaryDevices: 'fleet.driver_auxiliary_devices',
  driverVehicleSessions: 'fleet.driver_vehicle_sessions',
  trips: 'fleet.trips',
  tripHarshes: 'fleet.trip_harshes',
  tripOverspeeds: 'fleet.trip_overspeeds',
  tripMetadata: 'fleet.trip_metadata',
  deviceHistory: 'fleet.device_history',
  deviceFields: 'fleet.device_fields',
  readings: 'fleet.readings',
  batteryAnnotations: 'fleet.battery_annotations',
};

export function formatCounts(counts: TableCounts): string {
  return (Object.keys(COUNTED_TABLES) as Array<keyof TableCounts>)
    .map((key) => `  ${COUNTED_TABLES[key].padEnd(32)} ${String(counts[key]).padStart(8)}`)
    .join('\n');
}
