/**
 * One entry per table: its alias, explicit column list (SQL name -> model field), and the keyset
 * order used for paging. Selecting `t.col as "field"` maps rows straight to models.
 */
import type { Knex } from 'knex';

export interface TableSpec {
  table: string;
  alias: string;
  /** model field -> SQL column (unqualified) */
  columns: Record<string, string>;
  /** keyset order (qualified columns, the last one unique) and the matching model fields */
  order: { columns: string[]; fields: string[] };
}

export const accounts: TableSpec = {
  table: 'fleet.accounts',
  alias: 'a',
  columns: {
    id: 'id',
    organizationId: 'organization_id',
    email: 'email',
    phone: 'phone',
    fullName: 'full_name',
    shortName: 'short_name',
    companyName: 'company_name',
    countryCode: 'country_code',
    language: 'language',
    timeZone: 'time_zone',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    lastSignInAt: 'last_sign_in_at',
    confirmedAt: 'confirmed_at',
  },
  order: { columns: ['a.email', 'a.id'], fields: ['email', 'id'] },
};

export const groups: TableSpec = {
  table: 'fleet.groups',
  alias: 'g',
  columns: {
    id: 'id',
    organizationId: 'organization_id',
    label: 'label',
    tags: 'tags',
    hierarchyLevel: 'hierarchy_level',
    ownerId: 'owner_id',
  },
  order: { columns: ['g.label', 'g.id'], fields: ['label', 'id'] },
};

export const devices: TableSpec = {
  table: 'fleet.devices',
  alias: 'd',
  columns: {
    id: 'id',
    activeAccount: 'active_account',
    deviceType: 'device_type',
    serialNumber: 'serial_number',
    onboarded: 'onboarded',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    ownerId: 'owner_id',
    productId: 'product_id',
    currentVehicleId: 'current_vehicle_id',
    status: 'status',
    firstConnectionAt: 'first_connection_at',
    lastConnectionAt: 'last_connection_at',
    lastDisconnectionAt: 'last_disconnection_at',
    lastActivityAt: 'last_activity_at',
    lastConnectionReason: 'last_connection_reason',
    lastDisconnectionReason: 'last_disconnection_reason',
  },
  order: { columns: ['d.id'], fields: ['id'] },
};

export const vehicles: TableSpec = {
  table: 'fleet.vehicles',
  alias: 'v',
  columns: {
    id: 'id',
    vin: 'vin',
    plate: 'plate',
    make: 'make',
    model: 'model',
    year: 'model_year',
    fuelType: 'fuel_type',
    color: 'color',
    odometerKm: 'odometer_km',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['v.id'], fields: ['id'] },
};

export const products: TableSpec = {
  table: 'fleet.products',
  alias: 'pr',
  columns: {
    id: 'id',
    name: 'name',
    network: 'network',
    market: 'market',
    hasWifi: 'has_wifi',
    hasBluetooth: 'has_bluetooth',
  },
  order: { columns: ['pr.name', 'pr.id'], fields: ['name', 'id'] },
};

/** `select t.col as "field", ...` for a table spec. */
export function selectColumns(spec: TableSpec): string[] {
  return Object.entries(spec.columns).map(([field, column]) => `${spec.alias}.${column} as ${field}`);
}

export function from(knex: Knex, spec: TableSpec): Knex.QueryBuilder {
  return knex(`${spec.table} as ${spec.alias}`);
}

export function keyOf(spec: TableSpec) {
  return (row: Record<string, unknown>) => spec.order.fields.map((f) => row[f]);
}
