/**
 * The JSON dataset format of `npm run import` (documented in tools/seed/README.md).
 *
 * Shape only: this schema checks types, enums, formats and unknown keys. References between
 * entities (by natural keys: account e-mail, group label, product name, vehicle VIN or plate)
 * and duplicates are checked by validate.ts, which also reads the database. What trips and
 * devices record (harshes, readings, log fetches...) is in dataset-activity.ts.
 */
import { z } from 'zod';
import { enumOf, language, text, timestamp } from './fields';
import {
  CONNECTION_REASONS,
  DEVICE_STATUSES,
  DISCONNECTION_REASONS,
  FUEL_TYPES,
  HIERARCHY_LEVELS,
  PRODUCT_MARKETS,
  PRODUCT_NETWORKS,
  VEHICLE_TYPES,
} from '../demo/enums';
import { VIN_PATTERN, isValidImei } from '../demo/ids';
import { servicesSchema } from './dataset-services';
import {
  alertPreferenceSchema,
  batteryAnnotationSchema,
  deviceFieldSchema,
  deviceHistorySchema,
  lastPositionSchema,
  logFetchSchema,
  logfetchActionSchema,
  lpaOperationSchema,
  metricSchema,
  profileModeSchema,
  profilePrivacySchema,
  readingSchema,
  remoteDiagSchema,
  tripHarshSchema,
  tripMetadatumSchema,
  tripOverspeedSchema,
} from './dataset-activity';

const uuid = z.uuid({ error: (issue) => `invalid id ${JSON.stringify(issue.input)}: expected a UUID` });
/** A reference to another entity of the same organization, by id or natural key. */
const ref = text;
const refs = z.array(ref);

const timeZone = text.refine(
  (value) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  },
  {
    error: (issue) =>
      `unknown time zone ${JSON.stringify(issue.input)} (expected an IANA name such as Europe/Paris)`,
  },
);

export const accountSchema = z.strictObject({
  id: uuid.optional(),
  email: z.email({ error: (issue) => `invalid email ${JSON.stringify(issue.input)}` }),
  password: z.string().min(8, 'password must have at least 8 characters'),
  fullName: text,
  shortName: text.optional(),
  phone: text.optional(),
  companyName: text.optional(),
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/, 'countryCode must be an ISO 3166-1 alpha-2 code in upper case, e.g. DE')
    .optional(),
  language: language.optional(),
  timeZone: timeZone.optional(),
  /** Default: the import time. */
  confirmedAt: timestamp.optional(),
  lastSignInAt: timestamp.optional(),
  /** How the account wants to be notified of vehicle alerts. */
  alertPreference: alertPreferenceSchema.optional(),
});

export const groupSchema = z.strictObject({
  id: uuid.optional(),
  label: text,
  tags: z.array(text).default([]),
  hierarchyLevel: enumOf(HIERARCHY_LEVELS, 'hierarchyLevel').default('UNASSIGNED'),
  /** Parent groups (id or label). */
  parents: refs.default([]),
  /** Member accounts (email or id): they see this group, its descendants and their assets. */
  members: refs.default([]),
  /** Owner account (email or id). */
  owner: ref.optional(),
});

export const productSchema = z.strictObject({
  id: uuid.optional(),
  name: text,
  network: enumOf(PRODUCT_NETWORKS, 'network'),
  market: enumOf(PRODUCT_MARKETS, 'market'),
  hasWifi: z.boolean().default(false),
  hasBluetooth: z.boolean().default(false),
});

export const sessionSchema = z.strictObject({
  /** Vehicle id, VIN or plate. */
  vehicle: ref,
  startedAt: timestamp,
  /** Absent or null: the session is open (the device is in this vehicle now). */
  endedAt: timestamp.nullable().optional(),
});

export const deviceSchema = z.strictObject({
  id: z.string().refine(isValidImei, {
    error: (issue) =>
      `invalid IMEI ${JSON.stringify(issue.input)}: expected 15 digits ending with the Luhn check digit`,
  }),
  deviceType: text,
  serialNumber: text.optional(),
  activeAccount: text.optional(),
  onboarded: z.boolean().default(false),
  /** Default: DISCONNECTED when lastConnectionAt is given, else NEVER_CONNECTED. */
  status: enumOf(DEVICE_STATUSES, 'status').optional(),
  /** Owner account (email or id). */
  owner: ref.optional(),
  /** Product name or id (of this file or already in the database). */
  product: ref.optional(),
  /** Groups (label or id); at least one, else no account can see the device. */
  groups: refs.min(1, 'a device must be in at least one group'),
  /** The vehicle the device is in now (id, VIN or plate). */
  currentVehicle: ref.optional(),
  firstConnectionAt: timestamp.optional(),
  lastConnectionAt: timestamp.optional(),
  lastDisconnectionAt: timestamp.optional(),
  lastActivityAt: timestamp.optional(),
  lastConnectionReason: enumOf(CONNECTION_REASONS, 'lastConnectionReason').optional(),
  lastDisconnectionReason: enumOf(DISCONNECTION_REASONS, 'lastDisconnectionReason').optional(),
  vehicleSessions: z.array(sessionSchema).default([]),
  /** Last known position; recordedAt defaults to lastActivityAt. */
  lastPosition: lastPositionSchema.optional(),
  history: z.array(deviceHistorySchema).default([]),
  /** Data fields the device reports; readings refer to them by name. */
  fields: z.array(deviceFieldSchema).default([]),
  readings: z.array(readingSchema).default([]),
  batteryAnnotations: z.array(batteryAnnotationSchema).default([]),
  logFetches: z.array(logFetchSchema).default([]),
  remoteDiags: z.array(remoteDiagSchema).default([]),
  profilePrivacies: z.array(profilePrivacySchema).default([]),
  profileModes: z.array(profileModeSchema).default([]),
  lpaOperations: z.array(lpaOperationSchema).default([]),
});

export const vehicleSchema = z.strictObject({
  id: uuid.optional(),
  vin: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(VIN_PATTERN, 'VIN must be 17 characters of A-Z and 0-9 without I, O or Q'))
    .optional(),
  plate: text.optional(),
  make: text.optional(),
  model: text.optional(),
  year: z.number().int().min(1900).max(2100).optional(),
  fuelType: enumOf(FUEL_TYPES, 'fuelType').default('OTHER'),
  odometerKm: z.number().int().min(0).optional(),
  /** When odometerKm was read; needs odometerKm. */
  odometerUpdatedAt: timestamp.optional(),
  color: text.optional(),
  /** Fleet-internal name, e.g. Van 12. */
  label: text.optional(),
  vehicleType: enumOf(VEHICLE_TYPES, 'vehicleType').default('CAR'),
  registrationCountry: z
    .string()
    .regex(/^[A-Z]{2}$/, 'registrationCountry must be an ISO 3166-1 alpha-2 code in upper case, e.g. BE')
    .optional(),
  /** Not for ELECTRIC vehicles. */
  fuelTankCapacityLiters: z
    .number()
    .gt(0, 'fuelTankCapacityLiters must be above 0')
    .max(2000, 'fuelTankCapacityLiters must be at most 2000')
    .optional(),
  /** Traction battery: not for GASOLINE, DIESEL, LPG or CNG vehicles. */
  batteryCapacityKwh: z
    .number()
    .gt(0, 'batteryCapacityKwh must be above 0')
    .max(2000, 'batteryCapacityKwh must be at most 2000')
    .optional(),
  /** Groups (label or id); at least one. */
  groups: refs.min(1, 'a vehicle must be in at least one group'),
});

export const DRIVER_AUXILIARY_KINDS = ['BADGE', 'KEY_FOB', 'PHONE', 'TACHOGRAPH_CARD'] as const;

export const auxiliaryDeviceSchema = z
  .strictObject({
    kind: enumOf(DRIVER_AUXILIARY_KINDS, 'kind'),
    serialNumber: text.optional(),
    macAddressHash: text.optional(),
    idKey: text.optional(),
  })
  .refine((a) => a.serialNumber || a.macAddressHash || a.idKey, {
    error: 'an auxiliary device needs a serialNumber, a macAddressHash or an idKey',
  });

export const driverSessionSchema = z.strictObject({
  /** Vehicle id, VIN or plate. */
  vehicle: ref,
  startedAt: timestamp,
  /** Absent or null: the driver is in this vehicle now. */
  endedAt: timestamp.nullable().optional(),
});

export const driverSchema = z.strictObject({
  id: uuid.optional(),
  label: text,
  /** Badge or card number; unique in the organization; trips may refer to the driver by it. */
  idKey: text.optional(),
  /** The driver's own account (email or id). */
  userProfile: ref.optional(),
  /** The contact account (email or id). */
  userContact: ref.optional(),
  /** Vehicles (id, VIN or plate). */
  currentVehicle: ref.optional(),
  defaultVehicle: ref.optional(),
  active: z.boolean().default(true),
  /** Groups (label or id); at least one, else no account can see the driver. */
  groups: refs.min(1, 'a driver must be in at least one group'),
  auxiliaryDevices: z.array(auxiliaryDeviceSchema).default([]),
  vehicleSessions: z.array(driverSessionSchema).default([]),
});

const coordinates = z.strictObject({
  latitude: z
    .number()
    .min(-90, 'latitude must be between -90 and 90')
    .max(90, 'latitude must be between -90 and 90'),
  longitude: z
    .number()
    .min(-180, 'longitude must be between -180 and 180')
    .max(180, 'longitude must be between -180 and 180'),
});

export const tripSchema = z.strictObject({
  id: uuid.optional(),
  /** The recording device (IMEI of a device of this organization in the file). */
  device: text,
  /** Vehicle id, VIN or plate; default: the device's currentVehicle. */
  vehicle: ref.optional(),
  /** Driver id, idKey or label. */
  driver: ref.optional(),
  startedAt: timestamp,
  endedAt: timestamp,
  start: coordinates,
  end: coordinates,
  startAddress: text.optional(),
  endAddress: text.optional(),
  distanceKm: z
    .number()
    .min(0, 'distanceKm must not be negative')
    .max(5000, 'distanceKm must be at most 5000'),
  maxSpeedKmh: z
    .number()
    .min(0, 'maxSpeedKmh must not be negative')
    .max(400, 'maxSpeedKmh must be at most 400'),
  idleSeconds: z.number().int().min(0).default(0),
  fuelUsedLiters: z.number().min(0).optional(),
  harshes: z.array(tripHarshSchema).default([]),
  overspeeds: z.array(tripOverspeedSchema).default([]),
  /** Key-value pairs, keys unique within the trip (e.g. purpose: BUSINESS). */
  metadata: z.array(tripMetadatumSchema).default([]),
});

export const organizationSchema = z.strictObject({
  id: uuid.optional(),
  name: text,
  accounts: z.array(accountSchema).default([]),
  groups: z.array(groupSchema).default([]),
  /** Products are a global catalog; they may be listed here or at the top level. */
  products: z.array(productSchema).default([]),
  vehicles: z.array(vehicleSchema).default([]),
  devices: z.array(deviceSchema).default([]),
  drivers: z.array(driverSchema).default([]),
  trips: z.array(tripSchema).default([]),
  /** Roles, descriptions, alert templates, workshops, bookings, onboarding... (dataset-services.ts). */
  services: servicesSchema.optional(),
});

export const datasetSchema = z.strictObject({
  $schema: z.string().optional(),
  products: z.array(productSchema).default([]),
  /** Global catalog of the metrics devices report (ids and names unique, also against the database). */
  metrics: z.array(metricSchema).default([]),
  /** Global catalog of log kinds devices can upload; devices' logFetches refer to them by id. */
  logfetchActions: z.array(logfetchActionSchema).default([]),
  organizations: z.array(organizationSchema).min(1, 'a dataset needs at least one organization'),
});

export type Dataset = z.output<typeof datasetSchema>;
export type DatasetInput = z.input<typeof datasetSchema>;
export type OrganizationInput = z.output<typeof organizationSchema>;
export type AccountInput = z.output<typeof accountSchema>;
export type GroupInput = z.output<typeof groupSchema>;
export type ProductInput = z.output<typeof productSchema>;
export type DeviceInput = z.output<typeof deviceSchema>;
export type VehicleInput = z.output<typeof vehicleSchema>;
export type DriverInput = z.output<typeof driverSchema>;
export type TripInput = z.output<typeof tripSchema>;

/** `organizations[0].devices[3].owner` from a path of keys and indexes. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}
