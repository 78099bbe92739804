import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { account, nested, type Ctx, type Row } from '../../data/services/kit';
import { logfetchActions } from '../../data/services/log-fetches/tables';

export const logFetchResolvers = {
  Query: {
    logfetchActions(_: unknown, args: PageArgs, { reader }: Ctx) {
      const base = from(reader.knex, logfetchActions);
      return rootPage(reader, 'logfetchActions', logfetchActions, args, {}, base);
    },
  },
  Device: { logFetches: nested('deviceLogFetches') },
  Logfetch: {
    action: (row: Row, _: unknown, { reader }: Ctx) =>
      reader.services.logfetchAction.load(String(row.actionId)),
    requestedBy: account('requestedById'),
  },
};
