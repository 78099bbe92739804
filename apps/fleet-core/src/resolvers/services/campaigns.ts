import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { device, ownOrganization, type Ctx, type Row } from '../../data/services/kit';
import { campaigns } from '../../data/services/campaigns/tables';

export const campaignResolvers = {
  Query: {
    campaign: (_: unknown, args: { id: string }, { loaders }: Ctx) => loaders.services.campaign.load(args.id),

    campaigns(_: unknown, args: PageArgs & { archived?: boolean | null }, { loaders }: Ctx) {
      const { knex, viewer } = loaders;
      const base = from(knex, campaigns).whereRaw(ownOrganization(knex, 'cp', viewer));
      if (!args.archived) base.whereNull('cp.archived_at');
      const filters = { archived: Boolean(args.archived) };
      return rootPage(loaders, 'campaigns', campaigns, args, filters, base);
    },
  },
  Campaign: {
    devicesStatus: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.campaignDevices.load(String(row.id)),
  },
  CampaignDevice: { device: device('deviceId') },
};
