import type { TableSpec } from '@fleetgraph/paging';

export const driverServices: TableSpec = {
  table: 'fleet.driver_services',
  alias: 'dsv',
  columns: { id: 'id', label: 'label', description: 'description' },
  order: { columns: ['dsv.label', 'dsv.id'], fields: ['label', 'id'] },
};
