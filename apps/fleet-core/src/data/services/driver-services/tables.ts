import type { TableSpec } from '@fleetgraph/paging';

export const DRIVER_SERVICE_PAGES = {
  driverServices: { defaultSize: 20, maxSize: 100 },
} as const;

export const driverServices: TableSpec = {
  table: 'fleet.driver_services',
  alias: 'dsv',
  columns: { id: 'id', label: 'label', description: 'description' },
  order: { columns: ['dsv.label', 'dsv.id'], fields: ['label', 'id'] },
};
