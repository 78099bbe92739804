import type { TableSpec } from '@fleetgraph/paging';

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
