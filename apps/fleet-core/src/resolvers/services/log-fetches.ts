import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { account, nested, type Ctx, type Row } from '../../data/services/kit';
import { logfetchActions } from '../../data/services/log-fetches/tables';

export const logFetchResolvers = {
  Query: {
    logfetchActions(_: unknown, args: PageArgs, { loaders }: Ctx) {
      const base = from(loaders.knex, logfetchActions);
      return rootPage(loaders, 'logfetchActions', logfetchActions, args, {}, base);
    },
  },
  Device: { logFetches: nested('deviceLogFetches') },
  Logfetch: {
    action: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.logfetchAction.load(String(row.actionId)),
    requestedBy: account('requestedById'),
  },
};
