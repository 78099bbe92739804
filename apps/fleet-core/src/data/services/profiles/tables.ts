import type { TableSpec } from '@fleetgraph/paging';

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
