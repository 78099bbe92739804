import { uuidsOnly } from '@fleetgraph/paging';
import { deviceVisibleTo } from '@fleetgraph/visibility';
import { groupedBy, serviceLookup, type LoaderEnv } from '../kit';
import { campaigns } from './tables';

const campaign = serviceLookup({ column: 'cp.id', kind: 'uuid' }, ({ select, ownOrg }) =>
  select(campaigns).whereRaw(ownOrg('cp')),
);

export const campaignLoaders = (env: LoaderEnv) => ({
  campaign: campaign(env),
  /** Device states of a campaign, visible devices only, by device id. */
  campaignDevices: groupedBy(
    (keys) =>
      env
        .knex('fleet.campaign_devices as cd')
        .select(
          'cd.campaign_id as campaignId',
          'cd.device_id as deviceId',
          'cd.status',
          'cd.error_message as errorMessage',
          'cd.updated_at as updatedAt',
        )
        .whereIn('cd.campaign_id', uuidsOnly(keys))
        .where(deviceVisibleTo(env.knex, env.viewer, 'cd.device_id'))
        .orderBy('cd.device_id'),
    'campaignId',
    'uuid',
  ),
});
