import type { TableSpec } from '@fleetgraph/paging';

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
