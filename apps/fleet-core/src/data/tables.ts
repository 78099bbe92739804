/**
 * One entry per table: its alias, explicit column list (SQL name -> model field), and the keyset
 * order used for paging. Selecting `t.col as "field"` maps rows straight to models.
 */
import type { TableSpec } from '@fleetgraph/paging';

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
  fieldNeeds: {
    groups: [],
    devices: [],
    vehicles: [],
    drivers: [],
    driverProfiles: [],
    driverContacts: [],
  },
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
  // What the resolvers of resolvers/types.ts and trips.ts read besides the field's own column
  // (projection: a page selects only what its selection reads; undeclared fields read every column).
  fieldNeeds: {
    owner: ['ownerId'],
    devices: [],
    vehicles: [],
    parents: [],
    children: [],
    users: [],
    drivers: [],
  },
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
    lastLatitude: 'last_latitude',
    lastLongitude: 'last_longitude',
    lastPositionAt: 'last_position_at',
  },
  order: { columns: ['d.id'], fields: ['id'] },
  fieldNeeds: {
    owner: ['ownerId'],
    currentVehicle: ['currentVehicleId'],
    product: ['productId'],
    vehicles: [],
    groups: [],
    lastPosition: ['lastLatitude', 'lastLongitude', 'lastPositionAt'],
    lastTrip: [],
    trips: [],
    tripSummary: [],
    harshes: [],
  },
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
    odometerUpdatedAt: 'odometer_updated_at',
    label: 'label',
    vehicleType: 'vehicle_type',
    registrationCountry: 'registration_country',
    fuelTankCapacityL: 'fuel_tank_capacity_l',
    batteryCapacityKwh: 'battery_capacity_kwh',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['v.id'], fields: ['id'] },
  fieldNeeds: {
    fuelTankCapacityLiters: ['fuelTankCapacityL'],
    currentDevice: [],
    groups: [],
    currentDriver: [],
    lastTrip: [],
    trips: [],
  },
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

export const drivers: TableSpec = {
  table: 'fleet.drivers',
  alias: 'dr',
  columns: {
    id: 'id',
    organizationId: 'organization_id',
    label: 'label',
    idKey: 'id_key',
    userProfileId: 'user_profile_id',
    userContactId: 'user_contact_id',
    currentVehicleId: 'current_vehicle_id',
    defaultVehicleId: 'default_vehicle_id',
    active: 'active',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['dr.label', 'dr.id'], fields: ['label', 'id'] },
  fieldNeeds: {
    userProfile: ['userProfileId'],
    userContact: ['userContactId'],
    currentVehicle: ['currentVehicleId'],
    defaultVehicle: ['defaultVehicleId'],
    vehicles: [],
    currentVehicles: [],
    groups: [],
    lastTrip: [],
    trips: [],
    vehicleSessions: [],
  },
};

/** Newest first: (started_at desc, id desc), served by the (owner_id, started_at desc, id desc) indexes. */
export const trips: TableSpec = {
  table: 'fleet.trips',
  alias: 't',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    vehicleId: 'vehicle_id',
    driverId: 'driver_id',
    startedAt: 'started_at',
    endedAt: 'ended_at',
    startLatitude: 'start_latitude',
    startLongitude: 'start_longitude',
    endLatitude: 'end_latitude',
    endLongitude: 'end_longitude',
    startAddress: 'start_address',
    endAddress: 'end_address',
    distanceM: 'distance_m',
    maxSpeedKmh: 'max_speed_kmh',
    idleS: 'idle_s',
    fuelUsedL: 'fuel_used_l',
  },
  order: { columns: ['t.started_at', 't.id'], fields: ['startedAt', 'id'], direction: 'desc' },
  // What the Trip resolvers (resolvers/trips.ts) compute their fields from.
  fieldNeeds: {
    durationSeconds: ['startedAt', 'endedAt'],
    startPosition: ['startLatitude', 'startLongitude', 'startedAt'],
    endPosition: ['endLatitude', 'endLongitude', 'endedAt'],
    distanceKm: ['distanceM'],
    averageSpeedKmh: ['startedAt', 'endedAt', 'distanceM'],
    idleDurationSeconds: ['idleS'],
    fuelUsedLiters: ['fuelUsedL'],
    device: ['deviceId'],
    vehicle: ['vehicleId'],
    driver: ['driverId'],
    harshes: [],
    overspeeds: [],
    metadata: [],
  },
};

export const tripHarshes: TableSpec = {
  table: 'fleet.trip_harshes',
  alias: 'h',
  columns: {
    id: 'id',
    tripId: 'trip_id',
    deviceId: 'device_id',
    occurredAt: 'occurred_at',
    kind: 'kind',
    intensityG: 'intensity_g',
    speedKmh: 'speed_kmh',
    latitude: 'latitude',
    longitude: 'longitude',
  },
  order: { columns: ['h.occurred_at', 'h.id'], fields: ['occurredAt', 'id'], direction: 'desc' },
};

export const tripOverspeeds: TableSpec = {
  table: 'fleet.trip_overspeeds',
  alias: 'o',
  columns: {
    id: 'id',
    tripId: 'trip_id',
    deviceId: 'device_id',
    startedAt: 'started_at',
    endedAt: 'ended_at',
    maxSpeedKmh: 'max_speed_kmh',
    speedLimitKmh: 'speed_limit_kmh',
    distanceM: 'distance_m',
    latitude: 'latitude',
    longitude: 'longitude',
  },
  order: { columns: ['o.started_at', 'o.id'], fields: ['startedAt', 'id'], direction: 'desc' },
};

export const tripMetadata: TableSpec = {
  table: 'fleet.trip_metadata',
  alias: 'tm',
  columns: {
    id: 'id',
    tripId: 'trip_id',
    key: 'key',
    value: 'value',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['tm.key', 'tm.id'], fields: ['key', 'id'] },
};

export const deviceHistory: TableSpec = {
  table: 'fleet.device_history',
  alias: 'dh',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    occurredAt: 'occurred_at',
    event: 'event',
    reason: 'reason',
    vehicleId: 'vehicle_id',
  },
  order: { columns: ['dh.occurred_at', 'dh.id'], fields: ['occurredAt', 'id'], direction: 'desc' },
};

export const deviceFields: TableSpec = {
  table: 'fleet.device_fields',
  alias: 'df',
  columns: {
    name: 'name',
    deviceId: 'device_id',
    unit: 'unit',
    lastValue: 'last_value',
    lastRecordedAt: 'last_recorded_at',
  },
  order: { columns: ['df.name'], fields: ['name'] },
};

export const readings: TableSpec = {
  table: 'fleet.readings',
  alias: 'r',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    field: 'field',
    recordedAt: 'recorded_at',
    value: 'value',
    latitude: 'latitude',
    longitude: 'longitude',
  },
  order: { columns: ['r.recorded_at', 'r.id'], fields: ['recordedAt', 'id'], direction: 'desc' },
};

/**
 * Readings without position, by the hour (UTC) they were recorded in: the keyset is
 * (recordedHour, id), so a cursor never holds the exact time (index readings_device_hour_idx).
 * The relation selects from the subquery READINGS_BY_HOUR under this alias.
 */
export const readingsAnon: TableSpec = {
  table: 'fleet.readings',
  alias: 'ra',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    field: 'field',
    recordedHour: 'recorded_hour',
    value: 'value',
  },
  order: { columns: ['ra.recorded_hour', 'ra.id'], fields: ['recordedHour', 'id'], direction: 'desc' },
};
export const READINGS_BY_HOUR = `(select r.id, r.device_id, r.field, r.value, r.recorded_at,
  date_trunc('hour', r.recorded_at at time zone 'UTC') at time zone 'UTC' as recorded_hour
  from fleet.readings r) as ra`;

export const batteryAnnotations: TableSpec = {
  table: 'fleet.battery_annotations',
  alias: 'ba',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    recordedAt: 'recorded_at',
    voltage: 'voltage',
    state: 'state',
  },
  order: { columns: ['ba.recorded_at', 'ba.id'], fields: ['recordedAt', 'id'], direction: 'desc' },
};

export const deviceVehicleSessions: TableSpec = {
  table: 'fleet.device_vehicle_sessions',
  alias: 'dvs',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    vehicleId: 'vehicle_id',
    startedAt: 'started_at',
    endedAt: 'ended_at',
  },
  order: { columns: ['dvs.started_at', 'dvs.id'], fields: ['startedAt', 'id'], direction: 'desc' },
};

export const driverVehicleSessions: TableSpec = {
  table: 'fleet.driver_vehicle_sessions',
  alias: 'drs',
  columns: {
    id: 'id',
    driverId: 'driver_id',
    vehicleId: 'vehicle_id',
    startedAt: 'started_at',
    endedAt: 'ended_at',
  },
  order: { columns: ['drs.started_at', 'drs.id'], fields: ['startedAt', 'id'], direction: 'desc' },
};

/** `select t.col as "field", ...` for a table spec. */
export { from, keyOf, selectColumns, type TableSpec } from '@fleetgraph/paging';
