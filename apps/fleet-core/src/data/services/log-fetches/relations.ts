import { from, type RelationSpec } from '@fleetgraph/paging';
import { LOG_FETCH_PAGES, logFetches } from './tables';

export const logFetchRelations = {
  deviceLogFetches: {
    name: 'Device.logFetches',
    parentType: 'text',
    child: logFetches,
    rules: LOG_FETCH_PAGES.logFetches,
    children: (knex) => from(knex, logFetches).whereRaw('lf.device_id = p.parent_id'),
  },
} satisfies Record<string, RelationSpec>;
