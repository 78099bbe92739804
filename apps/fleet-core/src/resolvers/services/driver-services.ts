import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { escapeLike, nested, ownOrganization, type Ctx } from '../../data/services/kit';
import { driverServices } from '../../data/services/driver-services/tables';

export const driverServiceResolvers = {
  Query: {
    driverService: (_: unknown, args: { id: string }, { reader }: Ctx) =>
      reader.services.driverService.load(args.id),

    driverServices(_: unknown, args: PageArgs & { label?: string | null }, { reader }: Ctx) {
      const { knex, viewer } = reader;
      const base = from(knex, driverServices).whereRaw(ownOrganization(knex, 'dsv', viewer));
      if (args.label != null) base.whereILike('dsv.label', `%${escapeLike(args.label)}%`);
      const filters = { label: args.label };
      return rootPage(reader, 'driverServices', driverServices, args, filters, base);
    },
  },
  DriverService: { workshops: nested('driverServiceWorkshops') },
};
