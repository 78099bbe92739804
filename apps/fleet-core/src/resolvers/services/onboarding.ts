import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { device, nested, ownOrganization, type Ctx, type Row } from '../../data/services/kit';
import { workshopOf } from './workshops';
import { distributors } from '../../data/services/onboarding/tables';

export const onboardingResolvers = {
  Query: {
    distributor: (_: unknown, args: { id: string }, { reader }: Ctx) =>
      reader.services.distributor.load(args.id),

    distributors(_: unknown, args: PageArgs & { isActive?: boolean | null }, { reader }: Ctx) {
      const { knex, viewer } = reader;
      const base = from(knex, distributors).whereRaw(ownOrganization(knex, 'od', viewer));
      if (args.isActive != null) base.where('od.is_active', args.isActive);
      const filters = { isActive: args.isActive };
      return rootPage(reader, 'distributors', distributors, args, filters, base);
    },
  },
  Account: { distributors: nested('accountDistributors') },
  OnboardingDistributor: {
    provider: (row: Row, _: unknown, { reader }: Ctx) =>
      row.providerId ? reader.services.provider.load(String(row.providerId)) : null,
    workshop: workshopOf,
    staff: nested('distributorStaff'),
    requests: nested('distributorRequests'),
  },
  OnboardingRequest: { device: device('deviceId') },
};
