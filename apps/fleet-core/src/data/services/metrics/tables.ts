import type { TableSpec } from '@fleetgraph/paging';

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
