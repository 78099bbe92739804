/**
 * Column lists of the mobility tables (model field -> SQL column) and their keyset orders.
 * Rows are selected as `alias.column as field`, so they map straight to the GraphQL models.
 */
import type { TableSpec } from '@fleetgraph/paging';

export const TRANSACTIONS = 'mobility.transactions';
export const ANOMALIES = 'mobility.anomalies';

const transactionColumns = {
  id: 'id',
  organizationId: 'organization_id',
  transactedAt: 'transacted_at',
  quantity: 'quantity',
  quantityUnit: 'quantity_unit',
  odometerKm: 'odometer_km',
  energyType: 'energy_type',
  productCategory: 'product_category',
  transactionType: 'transaction_type',
  productLabel: 'product_label',
  vehiclePlate: 'vehicle_plate',
  vehicleVin: 'vehicle_vin',
  deviceImei: 'device_imei',
  driverLabel: 'driver_label',
  netUnitPrice: 'net_unit_price',
  grossUnitPrice: 'gross_unit_price',
  netTotal: 'net_total',
  grossTotal: 'gross_total',
  currency: 'currency',
  stationName: 'station_name',
  stationBrand: 'station_brand',
  stationCity: 'station_city',
  stationPostalCode: 'station_postal_code',
  stationLatitude: 'station_latitude',
  stationLongitude: 'station_longitude',
  source: 'source',
  externalSource: 'external_source',
  externalId: 'external_id',
  notes: 'notes',
  vehicleId: 'vehicle_id',
  deviceId: 'device_id',
  driverId: 'driver_id',
  groupId: 'group_id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

export type TransactionRow = {
  id: string;
  organizationId: string;
  transactedAt: Date;
  quantity: number;
  quantityUnit: string;
  odometerKm: number | null;
  energyType: string;
  productCategory: string;
  transactionType: string;
  productLabel: string | null;
  vehiclePlate: string | null;
  vehicleVin: string | null;
  deviceImei: string | null;
  driverLabel: string | null;
  netUnitPrice: number | null;
  grossUnitPrice: number | null;
  netTotal: number | null;
  grossTotal: number | null;
  currency: string | null;
  stationName: string | null;
  stationBrand: string | null;
  stationCity: string | null;
  stationPostalCode: string | null;
  stationLatitude: number | null;
  stationLongitude: number | null;
  source: string;
  externalSource: string | null;
  externalId: string | null;
  notes: string | null;
  vehicleId: string | null;
  deviceId: string | null;
  driverId: string | null;
  groupId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The references to fleet-core's entities read their id column (libs/paging projection.ts). */
const fleetReferences = {
  device: ['deviceId'],
  vehicle: ['vehicleId'],
  driver: ['driverId'],
  group: ['groupId'],
};

export const TRANSACTION_SPEC: TableSpec = {
  table: TRANSACTIONS,
  alias: 't',
  columns: transactionColumns,
  order: { columns: ['t.transacted_at', 't.id'], fields: ['transactedAt', 'id'], direction: 'desc' },
  // Fields that are not columns, and what they read: the anomaly counts and the nested anomalies
  // go by the transaction's id, which is always selected.
  fieldNeeds: {
    ...fleetReferences,
    hasAnomalies: [],
    hasActiveAnomalies: [],
    anomaliesCount: [],
    activeAnomaliesCount: [],
    mobilityTransactionAnomalies: [],
  },
};

const anomalyColumns = {
  id: 'id',
  transactionId: 'transaction_id',
  organizationId: 'organization_id',
  code: 'code',
  description: 'description',
  severity: 'severity',
  severityRank: 'severity_rank',
  status: 'status',
  active: 'active',
  detectedAt: 'detected_at',
  detectedBy: 'detected_by',
  detectedById: 'detected_by_id',
  clearedAt: 'cleared_at',
  clearedBy: 'cleared_by',
  clearedById: 'cleared_by_id',
  clearReason: 'clear_reason',
  expectedValue: 'expected_value',
  observedValue: 'observed_value',
  unit: 'unit',
  evidenceJson: 'evidence',
  vehicleId: 'vehicle_id',
  deviceId: 'device_id',
  driverId: 'driver_id',
  groupId: 'group_id',
  transactedAt: 'transacted_at',
  productCategory: 'product_category',
  transactionType: 'transaction_type',
  externalSource: 'external_source',
  externalId: 'external_id',
  locationCity: 'location_city',
  locationPostalCode: 'location_postal_code',
  locationLatitude: 'location_latitude',
  locationLongitude: 'location_longitude',
};

export interface AnomalyRow {
  id: string;
  transactionId: string;
  code: string;
  severity: string;
  status: string;
  active: boolean;
  detectedAt: Date;
  evidenceJson: unknown;
  vehicleId: string | null;
  deviceId: string | null;
  driverId: string | null;
  groupId: string | null;
  [field: string]: unknown;
}

const anomalyNeeds = {
  ...fleetReferences,
  transaction: ['transactionId'],
  evidence: ['evidenceJson'],
  // A user's account id, or a rule version: which one the *By column says.
  detectedById: ['detectedById', 'detectedBy'],
  clearedById: ['clearedById', 'clearedBy'],
};

const anomalySpecs = new Map<string, TableSpec>();

/**
 * The anomaly table with a given keyset order (client sort). One spec per order, kept: the
 * projections and their compiled statements are memoized per spec (sorts are a finite set).
 */
export function anomalySpec(order: TableSpec['order']): TableSpec {
  const name = `${order.columns.join(',')} ${order.direction ?? 'asc'}`;
  let spec = anomalySpecs.get(name);
  if (!spec) {
    spec = { table: ANOMALIES, alias: 'a', columns: anomalyColumns, order, fieldNeeds: anomalyNeeds };
    anomalySpecs.set(name, spec);
  }
  return spec;
}

export const ANOMALY_SPEC = anomalySpec({
  columns: ['a.detected_at', 'a.id'],
  fields: ['detectedAt', 'id'],
  direction: 'desc',
});

export const SEVERITY_RANK: Record<string, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
