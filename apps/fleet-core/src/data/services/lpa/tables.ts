import type { TableSpec } from '@fleetgraph/paging';

export const lpaOperations: TableSpec = {
  table: 'fleet.lpa_operations',
  alias: 'lp',
  columns: {
    id: 'id',
    imei: 'device_id',
    functionName: 'function_name',
    status: 'status',
    iccid: 'iccid',
    activationCode: 'activation_code',
    smdpAddress: 'smdp_address',
    matchingId: 'matching_id',
    nickname: 'nickname',
    hasConfirmationCode: 'has_confirmation_code',
    requestedAt: 'requested_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['lp.requested_at', 'lp.id'], fields: ['requestedAt', 'id'], direction: 'desc' },
};
