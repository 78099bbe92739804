import { byKey, uuidsOnly } from '@fleetgraph/paging';
import type { LoaderEnv } from '../kit';
import { driverServices } from './tables';

export const driverServiceLoaders = ({ select, ownOrg }: LoaderEnv) => ({
  driverService: byKey(
    (keys) => select(driverServices).whereIn('dsv.id', uuidsOnly(keys)).whereRaw(ownOrg('dsv')),
    'id',
    'uuid',
  ),
});
