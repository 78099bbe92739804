import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { device, nested, ownOrganization, type Ctx, type Row } from '../../data/services/kit';
import { workshopOf } from './workshops';
import { distributors } from '../../data/services/onboarding/tables';

export const onboardingResolvers = {
  Query: {
    distributor: (_: unknown, args: { id: string }, { loaders }: Ctx) =>
      loaders.services.distributor.load(args.id),

    distributors(_: unknown, args: PageArgs & { isActive?: boolean | null }, { loaders }: Ctx) {
      const { knex, viewer } = loaders;
      const base = from(knex, distributors).whereRaw(ownOrganization(knex, 'od', viewer));
      if (args.isActive != null) base.where('od.is_active', args.isActive);
      const filters = { isActive: args.isActive };
      return rootPage(loaders, 'distributors', distributors, args, filters, base);
    },
  },
  Account: { distributors: nested('accountDistributors') },
  OnboardingDistributor: {
    provider: (row: Row, _: unknown, { loaders }: Ctx) =>
      row.providerId ? loaders.services.provider.load(String(row.providerId)) : null,
    workshop: workshopOf,
    staff: nested('distributorStaff'),
    requests: nested('distributorRequests'),
  },
  OnboardingRequest: { device: device('deviceId') },
};
