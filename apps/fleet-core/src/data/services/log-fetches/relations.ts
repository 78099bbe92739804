import { from, type RelationSpec } from '@fleetgraph/paging';
import { logFetches } from './tables';

export const logFetchRelations = {
  deviceLogFetches: {
    name: 'Device.logFetches',
    parentType: 'text',
    child: logFetches,
    children: (knex) => from(knex, logFetches).whereRaw('lf.device_id = p.parent_id'),
  },
} satisfies Record<string, RelationSpec>;
