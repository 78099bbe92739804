import type { TableSpec } from '@fleetgraph/paging';

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
