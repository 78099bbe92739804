import type { TableSpec } from '@fleetgraph/paging';

export const remoteDiags: TableSpec = {
  table: 'fleet.device_remote_diags',
  alias: 'rd',
  columns: {
    id: 'id',
    status: 'status',
    protocol: 'protocol',
    requestedAt: 'requested_at',
    completedAt: 'completed_at',
    dtcCodes: 'dtc_codes',
    vin: 'vin',
    batteryVoltage: 'battery_voltage',
    odometerKm: 'odometer_km',
  },
  order: { columns: ['rd.requested_at', 'rd.id'], fields: ['requestedAt', 'id'], direction: 'desc' },
};
