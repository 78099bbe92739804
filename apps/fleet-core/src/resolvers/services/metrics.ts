import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { escapeLike, type Ctx } from '../../data/services/kit';
import { metrics } from '../../data/services/metrics/tables';

type MetricArgs = PageArgs & {
  ids?: string[] | null;
  names?: string[] | null;
  nameContains?: string | null;
  rawUnit?: boolean | null;
};

/** The metrics catalog is global. */
export const metricResolvers = {
  Query: {
    metrics(_: unknown, args: MetricArgs, { reader }: Ctx) {
      const { pageSize: _size, pageId: _id, ...filters } = args;
      const base = from(reader.knex, metrics);
      if (args.ids) base.whereIn('m.id', args.ids);
      if (args.names) base.whereIn('m.name', args.names);
      if (args.nameContains != null) base.whereILike('m.name', `%${escapeLike(args.nameContains)}%`);
      if (args.rawUnit === true)
        base.whereRaw('m.raw_unit is not null and m.raw_unit is distinct from m.unit');
      if (args.rawUnit === false) base.whereRaw('(m.raw_unit is null or m.raw_unit = m.unit)');
      return rootPage(reader, 'metrics', metrics, args, filters, base);
    },
  },
};
