/**
 * What trips and devices record, nested in the import format (tools/seed/README.md):
 * - under a trip: `harshes`, `overspeeds`, `metadata`;
 * - under a device: `lastPosition`, `history`, `fields`, `readings`, `batteryAnnotations`,
 *   `logFetches`, `remoteDiags`, `profilePrivacies`, `profileModes`, `lpaOperations`;
 * - under an account: `alertPreference`;
 * - at the top level: the global `metrics` and `logfetchActions` catalogs.
 *
 * Shape only (types, enums, formats, ranges, unknown keys). References and rules between values
 * (a harsh event inside its trip, overlapping periods, an unknown log-fetch action...) are checked
 * by validate-activity.ts. Enumerations mirror apps/fleet-core/src/schema/*.graphql.
 */
import { z } from 'zod';
import { enumOf, language, text, timestamp } from './fields';
import { VIN_PATTERN } from '../demo/ids';
import { ALERT_SEVERITIES, ALERT_TYPES } from './dataset-services';

export const HARSH_KINDS = ['ACCELERATION', 'BRAKING', 'CORNERING', 'IMPACT'] as const;
export const DEVICE_HISTORY_EVENTS = [
  'CONNECTED',
  'DISCONNECTED',
  'ONBOARDED',
  'INSTALLED',
  'REMOVED',
  'FIRMWARE_UPDATED',
  'CONFIGURATION_CHANGED',
] as const;
export const BATTERY_STATES = ['OK', 'LOW', 'CRITICAL', 'CHARGING', 'CRANKING'] as const;
export const LOGFETCH_STATUSES = [
  'REQUESTED',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'EXPIRED',
] as const;
export const REMOTE_DIAG_STATUSES = [
  'REQUESTED',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'NOT_SUPPORTED',
] as const;
export const PRIVACY_LEVELS = ['FULL', 'NO_LOCATION', 'ANONYMOUS', 'PRIVATE'] as const;
export const DEVICE_MODES = ['NORMAL', 'LOW_POWER', 'STORAGE', 'TRANSPORT', 'MAINTENANCE', 'TOWING'] as const;
export const LPA_FUNCTIONS = [
  'DOWNLOAD_AND_ENABLE_PROFILE',
  'DOWNLOAD_PROFILE',
  'ENABLE_PROFILE',
  'DISABLE_PROFILE',
  'DELETE_PROFILE',
  'SET_NICKNAME',
  'LIST_PROFILES',
  'GET_EID',
] as const;
/** Stored statuses of an LPA operation (Lpa.status; NOT_REQUESTED is only an answer, never stored). */
export const LPA_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED'] as const;
export const ALERT_CHANNELS = ['EMAIL', 'SMS', 'PUSH', 'WEBHOOK'] as const;
export const ALERT_DIGESTS = ['NONE', 'HOURLY', 'DAILY', 'WEEKLY'] as const;
export const METRIC_CATEGORIES = [
  'POSITION',
  'ENGINE',
  'FUEL',
  'BATTERY',
  'DRIVING',
  'DIAGNOSTICS',
  'ENVIRONMENT',
  'DEVICE',
] as const;
export const METRIC_DATA_TYPES = ['INTEGER', 'FLOAT', 'BOOLEAN', 'STRING', 'COORDINATES'] as const;

/** ICCID of an eSIM profile: 18 to 22 digits, the last one may be F (as fleet-core's lpa query). */
export const ICCID_PATTERN = /^\d{17,21}[\dF]$/i;
/** LPA:1$<SM-DP+ address>$<matching id>[$...] (as fleet-core's lpa query). */
export const ACTIVATION_CODE_PATTERN = /^LPA:1\$[^$\s]+\$[^$\s]*(\$.*)?$/;
/** OBD-II trouble code: P, C, B or U, then 4 hexadecimal digits (P0420, U0100). */
export const DTC_PATTERN = /^[PCBU][0-3][0-9A-F]{3}$/;
const MAX_INT = 2_147_483_647;

const number = (what: string, min: number, max: number, exclusiveMin = false) =>
  (exclusiveMin
    ? z.number().gt(min, `${what} must be above ${min}`)
    : z.number().min(min, `${what} must be at least ${min}`)
  ).max(max, `${what} must be at most ${max}`);
const int = (what: string, min: number, max: number) =>
  z.number().int(`${what} must be a whole number`).min(min, `${what} must be at least ${min}`).max(max);
const latitude = z
  .number()
  .min(-90, 'latitude must be between -90 and 90')
  .max(90, 'latitude must be between -90 and 90');
const longitude = z
  .number()
  .min(-180, 'longitude must be between -180 and 180')
  .max(180, 'longitude must be between -180 and 180');
const coordinates = z.strictObject({ latitude, longitude });
const hourMinute = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time of day HH:MM between 00:00 and 23:59');

// --- Under a trip -----------------------------------------------------------------------------

export const tripHarshSchema = z.strictObject({
  /** Within the trip (startedAt..endedAt). */
  occurredAt: timestamp,
  kind: enumOf(HARSH_KINDS, 'kind'),
  /** Peak acceleration in g. */
  intensityG: number('intensityG', 0, 20, true),
  /** Speed at the time; at most the trip's maxSpeedKmh. */
  speedKmh: number('speedKmh', 0, 400),
  position: coordinates,
});

export const tripOverspeedSchema = z.strictObject({
  /** Within the trip; endedAt after startedAt. */
  startedAt: timestamp,
  endedAt: timestamp,
  /** Above speedLimitKmh, at most the trip's maxSpeedKmh. */
  maxSpeedKmh: number('maxSpeedKmh', 0, 400),
  speedLimitKmh: number('speedLimitKmh', 0, 200, true),
  /** Distance driven above the limit; at most the trip's distance. */
  distanceKm: number('distanceKm', 0, 1000),
  /** Where the overspeed started. */
  position: coordinates,
});

export const tripMetadatumSchema = z.strictObject({
  /** Unique within the trip, e.g. purpose. */
  key: text,
  value: text,
  /** Default: the trip's endedAt. */
  createdAt: timestamp.optional(),
  /** Default: createdAt. */
  updatedAt: timestamp.optional(),
});

// --- Under a device ---------------------------------------------------------------------------

export const lastPositionSchema = z.strictObject({
  latitude,
  longitude,
  /** Default: the device's lastActivityAt. */
  recordedAt: timestamp.optional(),
});

export const deviceHistorySchema = z.strictObject({
  occurredAt: timestamp,
  event: enumOf(DEVICE_HISTORY_EVENTS, 'event'),
  /** A connection reason, a firmware version... */
  reason: text.optional(),
  /** INSTALLED and REMOVED only: vehicle id, VIN or plate. */
  vehicle: text.optional(),
});

export const deviceFieldSchema = z.strictObject({
  /** Unique per device, e.g. ODOMETER; readings refer to it. */
  name: text,
  unit: text.optional(),
  /** Both or neither; default: the field's latest reading. */
  lastValue: z.number().optional(),
  lastRecordedAt: timestamp.optional(),
});

export const readingSchema = z.strictObject({
  /** Name of a field of this device. */
  field: text,
  recordedAt: timestamp,
  value: z.number(),
  position: coordinates.optional(),
});

export const batteryAnnotationSchema = z.strictObject({
  recordedAt: timestamp,
  voltage: number('voltage', 0, 60, true),
  state: enumOf(BATTERY_STATES, 'state'),
});

export const logFetchSchema = z.strictObject({
  /** Id of a log-fetch action of the file's `logfetchActions` or of the database. */
  action: text,
  status: enumOf(LOGFETCH_STATUSES, 'status'),
  /** Account e-mail or id. */
  requestedBy: text.optional(),
  requestedAt: timestamp,
  /** Required for COMPLETED and EXPIRED; absent while REQUESTED or IN_PROGRESS. */
  completedAt: timestamp.optional(),
  byteSize: int('byteSize', 0, MAX_INT).optional(),
  /** COMPLETED only. */
  fileUrl: z.url({ error: (issue) => `invalid url ${JSON.stringify(issue.input)}` }).optional(),
});

export const remoteDiagSchema = z.strictObject({
  status: enumOf(REMOTE_DIAG_STATUSES, 'status'),
  /** Vehicle bus protocol, e.g. ISO15765_11BIT. */
  protocol: text.optional(),
  requestedAt: timestamp,
  /** Required for COMPLETED. */
  completedAt: timestamp.optional(),
  /** Results (COMPLETED only): fault codes, VIN, battery voltage, odometer. */
  dtcCodes: z
    .array(
      z.string().regex(DTC_PATTERN, 'invalid fault code: expected P, C, B or U and 4 hex digits, e.g. P0420'),
    )
    .default([]),
  vin: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(VIN_PATTERN, 'VIN must be 17 characters of A-Z and 0-9 without I, O or Q'))
    .optional(),
  batteryVoltage: number('batteryVoltage', 0, 60).optional(),
  odometerKm: int('odometerKm', 0, 5_000_000).optional(),
});

const period = {
  startedAt: timestamp,
  /** Absent or null: applies now (at most one open period per device). */
  endedAt: timestamp.nullable().optional(),
};
export const profilePrivacySchema = z.strictObject({ level: enumOf(PRIVACY_LEVELS, 'level'), ...period });
export const profileModeSchema = z.strictObject({ mode: enumOf(DEVICE_MODES, 'mode'), ...period });

export const lpaOperationSchema = z.strictObject({
  functionName: enumOf(LPA_FUNCTIONS, 'functionName'),
  status: enumOf(LPA_STATUSES, 'status'),
  iccid: z
    .string()
    .regex(ICCID_PATTERN, 'invalid ICCID: expected 18 to 22 digits (the last one may be F)')
    .optional(),
  activationCode: z
    .string()
    .regex(ACTIVATION_CODE_PATTERN, 'invalid activationCode: expected LPA:1$<SM-DP+ address>$<matching id>')
    .optional(),
  smdpAddress: text.optional(),
  matchingId: text.optional(),
  nickname: text.max(64, 'nickname must have at most 64 characters').optional(),
  /** Whether a confirmation code was given (the code itself is never stored). */
  hasConfirmationCode: z.boolean().default(false),
  requestedAt: timestamp,
  /** Default: requestedAt. */
  updatedAt: timestamp.optional(),
});

// --- Under an account -------------------------------------------------------------------------

export const alertPreferenceSchema = z.strictObject({
  channels: z.array(enumOf(ALERT_CHANNELS, 'channel')).min(1, 'at least one channel').default(['EMAIL']),
  minimumSeverity: enumOf(ALERT_SEVERITIES, 'minimumSeverity').default('WARNING'),
  digest: enumOf(ALERT_DIGESTS, 'digest').default('NONE'),
  /** Default: the account's language. */
  language: language.optional(),
  /** Both or neither, HH:MM in the account's time zone. */
  quietHoursStart: hourMinute.optional(),
  quietHoursEnd: hourMinute.optional(),
  mutedTypes: z.array(enumOf(ALERT_TYPES, 'muted type')).default([]),
  updatedAt: timestamp.optional(),
});

// --- Global catalogs (top level) --------------------------------------------------------------

export const metricSchema = z.strictObject({
  /** e.g. obd.vehicle_speed */
  id: text,
  /** Unique, e.g. vehicle_speed. */
  name: text,
  description: text,
  category: enumOf(METRIC_CATEGORIES, 'category'),
  dataType: enumOf(METRIC_DATA_TYPES, 'dataType'),
  unit: text.optional(),
  rawUnit: text.optional(),
  /** Display value = raw value x rawFactor. */
  rawFactor: number('rawFactor', 0, 1e9, true).default(1),
});

export const logfetchActionSchema = z.strictObject({
  /** e.g. SYSTEM_LOGS; devices' logFetches refer to it. */
  id: text,
  name: text,
  description: text,
  /** Period the log covers; absent: everything available. */
  defaultDurationMinutes: int('defaultDurationMinutes', 1, 527_040).optional(),
  /** Catalog order; default: after the actions already in the database, in file order. */
  position: int('position', 0, MAX_INT).optional(),
});

export type TripHarshInput = z.output<typeof tripHarshSchema>;
export type TripOverspeedInput = z.output<typeof tripOverspeedSchema>;
export type LpaOperationInput = z.output<typeof lpaOperationSchema>;
export type AlertPreferenceInput = z.output<typeof alertPreferenceSchema>;
export type MetricInput = z.output<typeof metricSchema>;
export type LogfetchActionInput = z.output<typeof logfetchActionSchema>;
