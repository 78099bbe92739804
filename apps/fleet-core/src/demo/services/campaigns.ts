/** Services demo of update campaigns (one archived) with device states. */
import { uuidV5 } from '../ids';
import type { OrgContext } from './context';

/** Three campaigns and the state of (up to 500) devices in each. */
export function writeCampaigns(ctx: OrgContext): void {
  const { rng, org, orgDevices, push, at } = ctx;
  const campaigns = [
    ['Firmware 5.1 rollout', 'IN_PROGRESS', 12, null, ['fw-5.1.0']],
    ['Low-power profile winter', 'AVAILABLE_UPDATE', 3, null, ['cfg-lowpower-w1', 'cfg-lowpower-w2']],
    ['Firmware 4.8 rollout', 'COMPLETED', 150, 90, ['fw-4.8.2']],
  ] as const;
  for (const [name, status, createdDaysAgo, archivedDaysAgo, configurations] of campaigns) {
    const id = uuidV5(`campaign:${org.id}:${name}`);
    push('fleet.campaigns', {
      id,
      organization_id: org.id,
      name,
      status,
      configurations: [...configurations],
      archived_at: archivedDaysAgo == null ? null : at(archivedDaysAgo),
      created_at: at(createdDaysAgo),
    });
    for (const d of orgDevices.slice(0, 500)) {
      if (status === 'AVAILABLE_UPDATE' && !rng.chance(0.3)) continue;
      const deviceStatus =
        status === 'COMPLETED'
          ? rng.weighted([
              ['UP_TO_DATE', 18],
              ['SKIPPED', 1],
              ['FAILED', 1],
            ] as const)
          : status === 'AVAILABLE_UPDATE'
            ? 'PENDING'
            : rng.weighted([
                ['UP_TO_DATE', 6],
                ['DOWNLOADING', 2],
                ['INSTALLING', 1],
                ['PENDING', 3],
                ['FAILED', 1],
              ] as const);
      push('fleet.campaign_devices', {
        campaign_id: id,
        device_id: d.id,
        status: deviceStatus,
        error_message:
          deviceStatus === 'FAILED'
            ? rng.pick(['download timeout', 'signature check failed', 'not enough storage'])
            : null,
        updated_at: at(rng.int(0, Math.min(createdDaysAgo, 30))),
      });
    }
  }
}
