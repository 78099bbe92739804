import { byKey, uuidsOnly } from '@fleetgraph/paging';
import type { LoaderEnv } from '../kit';
import { distributors, providers } from './tables';

/** Distributors of the caller's organization; providers are a global catalog. */
export const onboardingLoaders = ({ select, ownOrg }: LoaderEnv) => ({
  distributor: byKey(
    (keys) => select(distributors).whereIn('od.id', uuidsOnly(keys)).whereRaw(ownOrg('od')),
    'id',
    'uuid',
  ),
  provider: byKey((keys) => select(providers).whereIn('op.id', uuidsOnly(keys)), 'id', 'uuid'),
});
