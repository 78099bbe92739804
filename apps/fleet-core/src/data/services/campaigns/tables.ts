import type { TableSpec } from '@fleetgraph/paging';

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
