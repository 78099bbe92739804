import { from, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { device, ownOrganization, type Ctx, type Row } from '../../data/services/kit';
import { campaigns } from '../../data/services/campaigns/tables';

export const campaignResolvers = {
  Query: {
    campaign: (_: unknown, args: { id: string }, { reader }: Ctx) => reader.services.campaign.load(args.id),

    campaigns(_: unknown, args: PageArgs & { archived?: boolean | null }, { reader }: Ctx) {
      const { knex, viewer } = reader;
      const base = from(knex, campaigns).whereRaw(ownOrganization(knex, 'cp', viewer));
      if (!args.archived) base.whereNull('cp.archived_at');
      const filters = { archived: Boolean(args.archived) };
      return rootPage(reader, 'campaigns', campaigns, args, filters, base);
    },
  },
  Campaign: {
    devicesStatus: (row: Row, _: unknown, { reader }: Ctx) =>
      reader.services.campaignDevices.load(String(row.id)),
  },
  CampaignDevice: { device: device('deviceId') },
};
