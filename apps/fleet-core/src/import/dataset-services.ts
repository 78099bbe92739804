/**
 * The `services` section of an organization in the import format (tools/seed/README.md): roles,
 * descriptions, alert templates, workshops, driver services, onboarding distributors, client
 * identifications, bookings, campaigns and vehicle alerts, with the alerts' feedbacks and the
 * distributors' onboarding requests. Shape only; references are checked by import-services.ts.
 */
import { z } from 'zod';
import { enumOf, language, text, timestamp } from './fields';
import { LANGUAGES } from '../demo/enums';
import { VIN_PATTERN } from '../demo/ids';

export const ACCOUNT_ROLES = [
  'ADMIN',
  'FLEET_MANAGER',
  'DISPATCHER',
  'DRIVER',
  'VIEWER',
  'WORKSHOP_MANAGER',
  'BILLING',
] as const;
export const DESCRIPTION_SUBJECTS = ['ACCOUNT', 'GROUP', 'DEVICE', 'VEHICLE', 'DRIVER'] as const;
export const TEMPLATE_CONTENT_TYPES = ['TEXT', 'HTML', 'MARKDOWN', 'JSON'] as const;
export const BOOKING_STATUSES = [
  'PENDING',
  'CONFIRMED',
  'REJECTED',
  'CANCELLED',
  'IN_PROGRESS',
  'COMPLETED',
] as const;
export const CONTACT_METHODS = ['SMS', 'EMAIL', 'PHONE', 'WHATSAPP'] as const;
export const STAFF_ROLES = ['MANAGER', 'TECHNICIAN', 'SALES', 'SUPPORT'] as const;
export const CAMPAIGN_STATUSES = [
  'DRAFT',
  'AVAILABLE_UPDATE',
  'IN_PROGRESS',
  'PAUSED',
  'COMPLETED',
  'CANCELLED',
] as const;
export const CAMPAIGN_DEVICE_STATUSES = [
  'PENDING',
  'DOWNLOADING',
  'INSTALLING',
  'UP_TO_DATE',
  'FAILED',
  'SKIPPED',
] as const;
export const ALERT_TYPES = [
  'LOW_BATTERY',
  'ENGINE_FAULT',
  'MAINTENANCE_DUE',
  'TOWING',
  'CRASH_DETECTED',
  'UNPLUGGED',
  'GEOFENCE_EXIT',
  'OVERSPEED',
  'FUEL_LEVEL_LOW',
  'TIRE_PRESSURE_LOW',
  'COOLANT_TEMPERATURE_HIGH',
  'EXCESSIVE_IDLING',
] as const;
export const ALERT_SEVERITIES = ['INFO', 'WARNING', 'CRITICAL'] as const;
export const ALERT_STATUSES = ['ACTIVE', 'ACKNOWLEDGED', 'RESOLVED', 'DISMISSED'] as const;
export const FEEDBACK_STATUSES = ['CONFIRMED', 'FALSE_POSITIVE', 'FIXED', 'NOT_RELEVANT'] as const;
export const ONBOARDING_REQUEST_STATUSES = [
  'PENDING',
  'SCHEDULED',
  'IN_PROGRESS',
  'COMPLETED',
  'CANCELLED',
  'FAILED',
] as const;

/** A user's feedback on a vehicle alert (nested in the alert). */
export const alertFeedbackSchema = z.strictObject({
  /** The author: account e-mail or id of the organization. */
  account: text.optional(),
  status: enumOf(FEEDBACK_STATUSES, 'status'),
  /** Language of the comment; default: the author's language, else EN. */
  language: language.optional(),
  comment: text.optional(),
  /** Not before the alert's startedAt; default: the import time (the alert's startedAt when later). */
  createdAt: timestamp.optional(),
});

/** A request to install a device in a vehicle (nested in its distributor). */
export const onboardingRequestSchema = z.strictObject({
  status: enumOf(ONBOARDING_REQUEST_STATUSES, 'status'),
  /** The device installed: IMEI of a device of the organization. */
  device: text.optional(),
  /** A vehicle of the organization (id, VIN or plate): fills plate and vin. */
  vehicle: text.optional(),
  /** For a vehicle not in the file (instead of vehicle). */
  plate: text.optional(),
  vin: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(VIN_PATTERN, 'VIN must be 17 characters of A-Z and 0-9 without I, O or Q'))
    .optional(),
  notes: text.optional(),
  requestedAt: timestamp,
  /** Required for SCHEDULED; not before requestedAt. */
  scheduledAt: timestamp.optional(),
  /** Required for COMPLETED and only for it; not before requestedAt. */
  completedAt: timestamp.optional(),
});

export const servicesSchema = z.strictObject({
  /** Roles of accounts of the organization (account: e-mail or id). */
  accountRoles: z
    .array(
      z.strictObject({
        account: text,
        roles: z.array(enumOf(ACCOUNT_ROLES, 'role')).min(1),
        /** Default: the import time. */
        grantedAt: timestamp.optional(),
        /** The account that granted the roles (e-mail or id of the organization). */
        grantedBy: text.optional(),
      }),
    )
    .default([]),
  /** Label/value notes; `of` is an account e-mail or id, a group label or id, an IMEI, a vehicle VIN, plate or id. */
  descriptions: z
    .array(
      z.strictObject({
        subject: enumOf(DESCRIPTION_SUBJECTS, 'subject'),
        of: text,
        label: text,
        value: text,
        source: text.optional(),
      }),
    )
    .default([]),
  alertTemplates: z
    .array(
      z.strictObject({
        name: text,
        version: text.default('1.0.0'),
        contentType: enumOf(TEMPLATE_CONTENT_TYPES, 'contentType').default('TEXT'),
        channelName: text,
        definition: text,
        defaultContext: z.record(z.string(), z.unknown()).default({}),
        locked: z.boolean().default(false),
        attachments: z
          .array(
            z.strictObject({
              filename: text,
              contentType: text,
              byteSize: z.number().int().min(0),
              url: z.url({ error: (issue) => `invalid url ${JSON.stringify(issue.input)}` }),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  /** Repair shops the organization works with (created; referred to by name in this section). */
  workshops: z
    .array(
      z.strictObject({
        name: text,
        address: text.optional(),
        postalCode: text.optional(),
        city: text,
        countryCode: z
          .string()
          .regex(/^[A-Z]{2}$/, 'countryCode must be an ISO 3166-1 alpha-2 code such as DE'),
        phone: text.optional(),
        email: z.email({ error: (issue) => `invalid email ${JSON.stringify(issue.input)}` }).optional(),
        website: z.url().optional(),
        latitude: z.number().min(-90).max(90).optional(),
        longitude: z.number().min(-180).max(180).optional(),
      }),
    )
    .default([]),
  driverServices: z
    .array(
      z.strictObject({ label: text, description: text.optional(), workshops: z.array(text).default([]) }),
    )
    .default([]),
  distributors: z
    .array(
      z.strictObject({
        label: text,
        /** Provider network (created when its code is new). */
        provider: z
          .strictObject({
            code: text,
            name: text,
            website: z.url().optional(),
            supportEmail: z
              .email({ error: (issue) => `invalid email ${JSON.stringify(issue.input)}` })
              .optional(),
          })
          .optional(),
        isActive: z.boolean().default(true),
        /** Workshop name of this section. */
        workshop: text.optional(),
        providerWorkshopId: text.optional(),
        staff: z
          .array(
            z.strictObject({
              fullName: text,
              email: z.email().optional(),
              phone: text.optional(),
              role: enumOf(STAFF_ROLES, 'role'),
              active: z.boolean().default(true),
            }),
          )
          .default([]),
        requests: z.array(onboardingRequestSchema).default([]),
      }),
    )
    .default([]),
  clientIdentifications: z
    .array(
      z.strictObject({
        code: text,
        label: text,
        /** Distributor label of this section. */
        distributor: text.optional(),
        clientReference: text.optional(),
        /** Account e-mail or id. */
        defaultAccount: text.optional(),
        usable: z.boolean().default(true),
        revoked: z.boolean().default(false),
      }),
    )
    .default([]),
  /** Personal data (e-mail, name, phone) is copied from the booking's account. */
  bookings: z
    .array(
      z.strictObject({
        account: text,
        vehicle: text.optional(),
        workshop: text,
        bookingDate: timestamp,
        status: enumOf(BOOKING_STATUSES, 'status').default('PENDING'),
        quotationIds: z.array(text).default([]),
        additionalInformation: text.optional(),
        preferredLanguage: enumOf(LANGUAGES, 'preferredLanguage').optional(),
        contactMethod: enumOf(CONTACT_METHODS, 'contactMethod').optional(),
      }),
    )
    .default([]),
  campaigns: z
    .array(
      z.strictObject({
        name: text,
        status: enumOf(CAMPAIGN_STATUSES, 'status'),
        configurations: z.array(text).default([]),
        createdAt: timestamp.optional(),
        archivedAt: timestamp.optional(),
        devices: z
          .array(
            z.strictObject({
              device: text,
              status: enumOf(CAMPAIGN_DEVICE_STATUSES, 'status'),
              errorMessage: text.optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  vehicleAlerts: z
    .array(
      z.strictObject({
        /** IMEI of a device of the organization; the alert's vehicle is the device's current vehicle. */
        device: text,
        type: enumOf(ALERT_TYPES, 'type'),
        severity: enumOf(ALERT_SEVERITIES, 'severity'),
        status: enumOf(ALERT_STATUSES, 'status'),
        message: text,
        startedAt: timestamp,
        endedAt: timestamp.optional(),
        latitude: z.number().min(-90).max(90).optional(),
        longitude: z.number().min(-180).max(180).optional(),
        feedbacks: z.array(alertFeedbackSchema).default([]),
      }),
    )
    .default([]),
});

export type ServicesInput = z.output<typeof servicesSchema>;
