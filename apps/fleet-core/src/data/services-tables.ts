/**
 * Table specs of the services domains (descriptions, alerts, bookings, onboarding, campaigns,
 * catalogs, device diagnostics...): column maps and keyset orders, as in tables.ts.
 */
import type { TableSpec } from './tables';

export const descriptions: TableSpec = {
  table: 'fleet.descriptions',
  alias: 'ds',
  columns: {
    id: 'id',
    subject: 'subject',
    subjectId: 'subject_id',
    label: 'label',
    value: 'value',
    source: 'source',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['ds.label', 'ds.id'], fields: ['label', 'id'] },
};

export const alertTemplates: TableSpec = {
  table: 'fleet.alert_templates',
  alias: 'at',
  columns: {
    id: 'id',
    name: 'name',
    version: 'version',
    contentType: 'content_type',
    defaultContext: 'default_context',
    locked: 'locked',
    channelName: 'channel_name',
    definition: 'definition',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['at.name', 'at.id'], fields: ['name', 'id'] },
};

export const alertAttachments: TableSpec = {
  table: 'fleet.alert_attachments',
  alias: 'aa',
  columns: {
    id: 'id',
    filename: 'filename',
    contentType: 'content_type',
    byteSize: 'byte_size',
    url: 'url',
    createdAt: 'created_at',
  },
  order: { columns: ['aa.filename', 'aa.id'], fields: ['filename', 'id'] },
};

export const vehicleAlerts: TableSpec = {
  table: 'fleet.vehicle_alerts',
  alias: 'va',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    vehicleId: 'vehicle_id',
    type: 'type',
    severity: 'severity',
    status: 'status',
    message: 'message',
    startedAt: 'started_at',
    endedAt: 'ended_at',
    latitude: 'latitude',
    longitude: 'longitude',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['va.started_at', 'va.id'], fields: ['startedAt', 'id'], direction: 'desc' },
};

export const alertFeedbacks: TableSpec = {
  table: 'fleet.vehicle_alert_feedbacks',
  alias: 'vf',
  columns: {
    id: 'id',
    alertId: 'alert_id',
    accountId: 'account_id',
    status: 'status',
    language: 'language',
    comment: 'comment',
    createdAt: 'created_at',
  },
  order: { columns: ['vf.created_at', 'vf.id'], fields: ['createdAt', 'id'], direction: 'desc' },
};

export const workshops: TableSpec = {
  table: 'fleet.workshops',
  alias: 'w',
  columns: {
    id: 'id',
    name: 'name',
    address: 'address',
    postalCode: 'postal_code',
    city: 'city',
    countryCode: 'country_code',
    phone: 'phone',
    email: 'email',
    website: 'website',
    latitude: 'latitude',
    longitude: 'longitude',
  },
  order: { columns: ['w.name', 'w.id'], fields: ['name', 'id'] },
};

export const driverServices: TableSpec = {
  table: 'fleet.driver_services',
  alias: 'dsv',
  columns: { id: 'id', label: 'label', description: 'description' },
  order: { columns: ['dsv.label', 'dsv.id'], fields: ['label', 'id'] },
};

/** Personal columns (user_email, user_name, user_phone_number) are selected apart, by rule. */
export const bookings: TableSpec = {
  table: 'fleet.bookings',
  alias: 'b',
  columns: {
    id: 'id',
    accountId: 'account_id',
    vehicleId: 'vehicle_id',
    workshopId: 'workshop_id',
    plateNumber: 'plate_number',
    bookingDate: 'booking_date',
    status: 'status',
    quotationIds: 'quotation_ids',
    vehicleMake: 'vehicle_make',
    vehicleModel: 'vehicle_model',
    vehicleYear: 'vehicle_year',
    vin: 'vin',
    city: 'city',
    country: 'country',
    additionalInformation: 'additional_information',
    preferredLanguage: 'preferred_language',
    contactMethod: 'contact_method',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['b.booking_date', 'b.id'], fields: ['bookingDate', 'id'], direction: 'desc' },
};

export const distributors: TableSpec = {
  table: 'fleet.onboarding_distributors',
  alias: 'od',
  columns: {
    id: 'id',
    organizationId: 'organization_id',
    label: 'label',
    providerId: 'provider_id',
    isActive: 'is_active',
    workshopId: 'workshop_id',
    providerWorkshopId: 'provider_workshop_id',
  },
  order: { columns: ['od.label', 'od.id'], fields: ['label', 'id'] },
};

export const providers: TableSpec = {
  table: 'fleet.onboarding_providers',
  alias: 'op',
  columns: { id: 'id', code: 'code', name: 'name', website: 'website', supportEmail: 'support_email' },
  order: { columns: ['op.name', 'op.id'], fields: ['name', 'id'] },
};

export const staff: TableSpec = {
  table: 'fleet.onboarding_staff',
  alias: 'os',
  columns: {
    id: 'id',
    fullName: 'full_name',
    email: 'email',
    phone: 'phone',
    role: 'role',
    active: 'active',
    createdAt: 'created_at',
  },
  order: { columns: ['os.full_name', 'os.id'], fields: ['fullName', 'id'] },
};

export const requests: TableSpec = {
  table: 'fleet.onboarding_requests',
  alias: 'orq',
  columns: {
    id: 'id',
    deviceId: 'device_id',
    status: 'status',
    plate: 'plate',
    vin: 'vin',
    notes: 'notes',
    requestedAt: 'requested_at',
    scheduledAt: 'scheduled_at',
    completedAt: 'completed_at',
  },
  order: { columns: ['orq.requested_at', 'orq.id'], fields: ['requestedAt', 'id'], direction: 'desc' },
};

export const clientIdentifications: TableSpec = {
  table: 'fleet.client_identifications',
  alias: 'ci',
  columns: {
    id: 'id',
    code: 'code',
    label: 'label',
    distributorId: 'distributor_id',
    clientReference: 'client_reference',
    defaultAccountId: 'default_account_id',
    usable: 'usable',
    revoked: 'revoked',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['ci.code', 'ci.id'], fields: ['code', 'id'] },
};

export const campaigns: TableSpec = {
  table: 'fleet.campaigns',
  alias: 'cp',
  columns: {
    id: 'id',
    name: 'name',
    status: 'status',
    configurations: 'configurations',
    archivedAt: 'archived_at',
    createdAt: 'created_at',
  },
  order: { columns: ['cp.created_at', 'cp.id'], fields: ['createdAt', 'id'], direction: 'desc' },
};

export const metrics: TableSpec = {
  table: 'fleet.metrics',
  alias: 'm',
  columns: {
    id: 'id',
    name: 'name',
    description: 'description',
    category: 'category',
    dataType: 'data_type',
    unit: 'unit',
    rawUnit: 'raw_unit',
    rawFactor: 'raw_factor',
  },
  order: { columns: ['m.name', 'm.id'], fields: ['name', 'id'] },
};

export const logfetchActions: TableSpec = {
  table: 'fleet.logfetch_actions',
  alias: 'la',
  columns: {
    id: 'id',
    name: 'name',
    description: 'description',
    defaultDurationMinutes: 'default_duration_minutes',
    position: 'position',
  },
  order: { columns: ['la.position', 'la.id'], fields: ['position', 'id'] },
};

export const logFetches: TableSpec = {
  table: 'fleet.device_log_fetches',
  alias: 'lf',
  columns: {
    id: 'id',
    actionId: 'action_id',
    status: 'status',
    requestedById: 'requested_by',
    requestedAt: 'requested_at',
    completedAt: 'completed_at',
    byteSize: 'byte_size',
    fileUrl: 'file_url',
  },
  order: { columns: ['lf.requested_at', 'lf.id'], fields: ['requestedAt', 'id'], direction: 'desc' },
};

export const remoteDiags: TableSpec = {
  table: 'fleet.device_remote_diags',
  alias: 'rd',
  columns: {
    id: 'id',
    status: 'status',
    protocol: 'protocol',
    requestedAt: 'requested_at',
    completedAt: 'completed_at',
    dtcCodes: 'dtc_codes',
    vin: 'vin',
    batteryVoltage: 'battery_voltage',
    odometerKm: 'odometer_km',
  },
  order: { columns: ['rd.requested_at', 'rd.id'], fields: ['requestedAt', 'id'], direction: 'desc' },
};

export const profilePrivacies: TableSpec = {
  table: 'fleet.device_profile_privacies',
  alias: 'pp',
  columns: { id: 'id', deviceId: 'device_id', level: 'level', startedAt: 'started_at', endedAt: 'ended_at' },
  order: { columns: ['pp.started_at', 'pp.id'], fields: ['startedAt', 'id'], direction: 'desc' },
};

export const profileModes: TableSpec = {
  table: 'fleet.device_profile_modes',
  alias: 'pm',
  columns: { id: 'id', deviceId: 'device_id', mode: 'mode', startedAt: 'started_at', endedAt: 'ended_at' },
  order: { columns: ['pm.started_at', 'pm.id'], fields: ['startedAt', 'id'], direction: 'desc' },
};

export const lpaOperations: TableSpec = {
  table: 'fleet.lpa_operations',
  alias: 'lp',
  columns: {
    id: 'id',
    imei: 'device_id',
    functionName: 'function_name',
    status: 'status',
    iccid: 'iccid',
    activationCode: 'activation_code',
    smdpAddress: 'smdp_address',
    matchingId: 'matching_id',
    nickname: 'nickname',
    hasConfirmationCode: 'has_confirmation_code',
    requestedAt: 'requested_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['lp.requested_at', 'lp.id'], fields: ['requestedAt', 'id'], direction: 'desc' },
};
