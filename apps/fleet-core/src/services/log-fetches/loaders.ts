import { byKey } from '@fleetgraph/paging';
import type { LoaderEnv } from '../kit';
import { logfetchActions } from './tables';

/** Log-fetch actions are a global catalog, keyed by code. */
export const logFetchLoaders = ({ select }: LoaderEnv) => ({
  logfetchAction: byKey((keys) => select(logfetchActions).whereIn('la.id', keys as string[]), 'id', 'text'),
});
