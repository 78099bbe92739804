import { serviceLookup, type LoaderEnv } from '../kit';
import { distributors, providers } from './tables';

const distributor = serviceLookup({ column: 'od.id', kind: 'uuid' }, ({ select, ownOrg }) =>
  select(distributors).whereRaw(ownOrg('od')),
);
const provider = serviceLookup({ column: 'op.id', kind: 'uuid' }, ({ select }) => select(providers));

/** Distributors of the caller's organization; providers are a global catalog. */
export const onboardingLoaders = (env: LoaderEnv) => ({
  distributor: distributor(env),
  provider: provider(env),
});
