import type { TableSpec } from '@fleetgraph/paging';

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
