import { from, type RelationSpec } from '@fleetgraph/paging';
import { remoteDiags } from './tables';

export const remoteDiagRelations = {
  deviceRemoteDiags: {
    name: 'Device.remoteDiags',
    parentType: 'text',
    child: remoteDiags,
    children: (knex) => from(knex, remoteDiags).whereRaw('rd.device_id = p.parent_id'),
  },
} satisfies Record<string, RelationSpec>;
