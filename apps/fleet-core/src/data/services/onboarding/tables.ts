import type { TableSpec } from '@fleetgraph/paging';

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
