import { serviceLookup, type LoaderEnv } from '../kit';
import { logfetchActions } from './tables';

const logfetchAction = serviceLookup({ column: 'la.id', kind: 'text' }, ({ select }) =>
  select(logfetchActions),
);

/** Log-fetch actions are a global catalog, keyed by code. */
export const logFetchLoaders = (env: LoaderEnv) => ({
  logfetchAction: logfetchAction(env),
});
