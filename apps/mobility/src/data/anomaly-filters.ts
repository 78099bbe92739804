/**
 * The arguments of mobilityTransactionAnomalies (spec 4.2) as SQL on mobility.anomalies (alias a).
 * Arguments combine by AND; the values of one list argument by OR (`= any(...)`); an empty list
 * matches nothing. Ids that cannot be uuids cannot match a uuid column (they match nothing).
 */
import { arrayParameter } from '@fleetgraph/db';
import type { Knex } from 'knex';
import { badInput, isUuid } from '@fleetgraph/paging';

export interface AnomalyFilters {
  deviceId?: string[] | null;
  vehicleId?: string[] | null;
  driverId?: string[] | null;
  groupId?: string[] | null;
  mobilityTransactionId?: string[] | null;
  detectedById?: string[] | null;
  clearedById?: string[] | null;
  detectedBy?: string[] | null;
  clearedBy?: string[] | null;
  active?: boolean[] | null;
  status?: string[] | null;
  severity?: string[] | null;
  code?: string[] | null;
  externalSource?: string[] | null;
  externalId?: string[] | null;
  productCategory?: string[] | null;
  transactionType?: string[] | null;
  locationCity?: string[] | null;
  locationPostalCode?: string[] | null;
  locationLatitude?: number[] | null;
  locationLongitude?: number[] | null;
  locationLatitudeGte?: number | null;
  locationLatitudeLte?: number | null;
  locationLongitudeGte?: number | null;
  locationLongitudeLte?: number | null;
  detectedAtAfter?: Date | null;
  detectedAtBefore?: Date | null;
  clearedAtAfter?: Date | null;
  clearedAtBefore?: Date | null;
  transactedAtAfter?: Date | null;
  transactedAtBefore?: Date | null;
}

const LISTS: Array<[keyof AnomalyFilters, string, 'uuid' | 'text' | 'bool' | 'float']> = [
  ['deviceId', 'device_id', 'text'],
  ['vehicleId', 'vehicle_id', 'uuid'],
  ['driverId', 'driver_id', 'uuid'],
  ['groupId', 'group_id', 'uuid'],
  ['mobilityTransactionId', 'transaction_id', 'uuid'],
  ['detectedById', 'detected_by_id', 'text'],
  ['clearedById', 'cleared_by_id', 'text'],
  ['detectedBy', 'detected_by', 'text'],
  ['clearedBy', 'cleared_by', 'text'],
  ['active', 'active', 'bool'],
  ['status', 'status', 'text'],
  ['severity', 'severity', 'text'],
  ['code', 'code', 'text'],
  ['externalSource', 'external_source', 'text'],
  ['externalId', 'external_id', 'text'],
  ['productCategory', 'product_category', 'text'],
  ['transactionType', 'transaction_type', 'text'],
  ['locationPostalCode', 'location_postal_code', 'text'],
  ['locationLatitude', 'location_latitude', 'float'],
  ['locationLongitude', 'location_longitude', 'float'],
];

const RANGES: Array<[keyof AnomalyFilters, string, '>=' | '<=' | '<']> = [
  ['locationLatitudeGte', 'location_latitude', '>='],
  ['locationLatitudeLte', 'location_latitude', '<='],
  ['locationLongitudeGte', 'location_longitude', '>='],
  ['locationLongitudeLte', 'location_longitude', '<='],
  ['detectedAtAfter', 'detected_at', '>='],
  ['detectedAtBefore', 'detected_at', '<'],
  ['clearedAtAfter', 'cleared_at', '>='],
  ['clearedAtBefore', 'cleared_at', '<'],
  ['transactedAtAfter', 'transacted_at', '>='],
  ['transactedAtBefore', 'transacted_at', '<'],
];

/** The filters as given, without absent ones (for the cursor fingerprint). */
export function presentFilters(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key] of [...LISTS, ...RANGES, ['locationCity'] as const]) {
    const value = args[key as string];
    if (value !== undefined && value !== null)
      out[key as string] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

export function applyAnomalyFilters(query: Knex.QueryBuilder, f: AnomalyFilters): Knex.QueryBuilder {
  for (const [arg, column, kind] of LISTS) {
    const values = f[arg] as unknown[] | null | undefined;
    if (values == null) continue;
    const usable = kind === 'uuid' ? (values as string[]).filter(isUuid).map((v) => v.toLowerCase()) : values;
    if (usable.length === 0) {
      query.whereRaw('false');
      continue;
    }
    query.whereIn(`a.${column}`, usable as Knex.Value[]);
  }
  if (f.locationCity != null) {
    if (f.locationCity.length === 0) query.whereRaw('false');
    else
      query.whereRaw(`lower(a.location_city) = any(${arrayParameter('text')})`, [
        f.locationCity.map((c) => c.toLowerCase()),
      ]);
  }
  for (const [arg, column, op] of RANGES) {
    const value = f[arg] as number | Date | null | undefined;
    if (value == null) continue;
    if (typeof value === 'number' && !Number.isFinite(value))
      throw badInput(`${arg} must be a finite number`, { argument: arg });
    query.where(`a.${column}`, op, value);
  }
  return query;
}

/** Sort values -> keyset order columns (all one direction), the id last. */
const SORT_COLUMNS: Record<string, { column: string; field: string; direction: 'asc' | 'desc' }> = {
  DETECTED_AT_DESC: { column: 'a.detected_at', field: 'detectedAt', direction: 'desc' },
  DETECTED_AT_ASC: { column: 'a.detected_at', field: 'detectedAt', direction: 'asc' },
  TRANSACTED_AT_DESC: { column: 'a.transacted_at', field: 'transactedAt', direction: 'desc' },
  TRANSACTED_AT_ASC: { column: 'a.transacted_at', field: 'transactedAt', direction: 'asc' },
  SEVERITY_DESC: { column: 'a.severity_rank', field: 'severityRank', direction: 'desc' },
  SEVERITY_ASC: { column: 'a.severity_rank', field: 'severityRank', direction: 'asc' },
  CODE_DESC: { column: 'a.code', field: 'code', direction: 'desc' },
  CODE_ASC: { column: 'a.code', field: 'code', direction: 'asc' },
};

export function sortOrder(sort: string[] | null | undefined): {
  columns: string[];
  fields: string[];
  direction: 'asc' | 'desc';
} {
  const values = sort && sort.length > 0 ? [...new Set(sort)] : ['DETECTED_AT_DESC'];
  const keys = values.map((v) => SORT_COLUMNS[v]!);
  const direction = keys[0]!.direction;
  if (keys.some((k) => k.direction !== direction)) {
    throw badInput('sort values must all go the same direction (all *_ASC or all *_DESC).', {
      argument: 'sort',
    });
  }
  if (new Set(keys.map((k) => k.column)).size !== keys.length) {
    throw badInput('sort names the same key twice (e.g. DETECTED_AT_ASC and DETECTED_AT_DESC).', {
      argument: 'sort',
    });
  }
  return {
    columns: [...keys.map((k) => k.column), 'a.id'],
    fields: [...keys.map((k) => k.field), 'id'],
    direction,
  };
}
