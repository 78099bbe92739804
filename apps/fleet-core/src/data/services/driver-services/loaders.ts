import { serviceLookup, type LoaderEnv } from '../kit';
import { driverServices } from './tables';

const driverService = serviceLookup({ column: 'dsv.id', kind: 'uuid' }, ({ select, ownOrg }) =>
  select(driverServices).whereRaw(ownOrg('dsv')),
);

export const driverServiceLoaders = (env: LoaderEnv) => ({
  driverService: driverService(env),
});
