import type { TableSpec } from '@fleetgraph/paging';
import { serviceLookup, type LoaderEnv } from '../kit';
import { profileModes, profilePrivacies } from './tables';

/** The current (not ended, latest started) row of `spec` per device. */
const current = (spec: TableSpec) => {
  const a = spec.alias;
  return serviceLookup({ column: `${a}.device_id`, field: 'deviceId', kind: 'text' }, ({ select }) =>
    select(spec)
      .whereNull(`${a}.ended_at`)
      .distinctOn(`${a}.device_id`)
      .orderBy([{ column: `${a}.device_id` }, { column: `${a}.started_at`, order: 'desc' }]),
  );
};
const currentPrivacy = current(profilePrivacies);
const currentMode = current(profileModes);

export const profileLoaders = (env: LoaderEnv) => ({
  currentPrivacy: currentPrivacy(env),
  currentMode: currentMode(env),
});
