import { byKey, uuidsOnly } from '@fleetgraph/paging';
import { visibleDevices } from '@fleetgraph/visibility';
import { groupedBy, type LoaderEnv } from '../kit';
import { campaigns } from './tables';

export const campaignLoaders = ({ knex, viewer, select, ownOrg }: LoaderEnv) => ({
  campaign: byKey(
    (keys) => select(campaigns).whereIn('cp.id', uuidsOnly(keys)).whereRaw(ownOrg('cp')),
    'id',
    'uuid',
  ),
  /** Device states of a campaign, visible devices only, by device id. */
  campaignDevices: groupedBy(
    (keys) =>
      knex('fleet.campaign_devices as cd')
        .select(
          'cd.campaign_id as campaignId',
          'cd.device_id as deviceId',
          'cd.status',
          'cd.error_message as errorMessage',
          'cd.updated_at as updatedAt',
        )
        .whereIn('cd.campaign_id', uuidsOnly(keys))
        .whereIn('cd.device_id', visibleDevices(knex, viewer))
        .orderBy('cd.device_id'),
    'campaignId',
    'uuid',
  ),
});
