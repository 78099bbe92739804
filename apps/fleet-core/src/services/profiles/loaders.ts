import { byKey, type TableSpec } from '@fleetgraph/paging';
import type { LoaderEnv } from '../kit';
import { profileModes, profilePrivacies } from './tables';

/** The current (not ended, latest started) row of `spec` per device. */
const current = ({ select }: LoaderEnv, spec: TableSpec) => {
  const a = spec.alias;
  return byKey(
    (keys) =>
      select(spec)
        .whereIn(`${a}.device_id`, keys as string[])
        .whereNull(`${a}.ended_at`)
        .distinctOn(`${a}.device_id`)
        .orderBy([{ column: `${a}.device_id` }, { column: `${a}.started_at`, order: 'desc' }]),
    'deviceId',
    'text',
  );
};

export const profileLoaders = (env: LoaderEnv) => ({
  currentPrivacy: current(env, profilePrivacies),
  currentMode: current(env, profileModes),
});
