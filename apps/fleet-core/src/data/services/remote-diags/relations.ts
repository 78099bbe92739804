import { from, type RelationSpec } from '@fleetgraph/paging';
import { REMOTE_DIAG_PAGES, remoteDiags } from './tables';

export const remoteDiagRelations = {
  deviceRemoteDiags: {
    name: 'Device.remoteDiags',
    parentType: 'text',
    child: remoteDiags,
    rules: REMOTE_DIAG_PAGES.remoteDiags,
    children: (knex) => from(knex, remoteDiags).whereRaw('rd.device_id = p.parent_id'),
  },
} satisfies Record<string, RelationSpec>;
