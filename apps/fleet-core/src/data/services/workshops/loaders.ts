import { serviceLookup, type LoaderEnv } from '../kit';
import { workshops } from './tables';

const workshop = serviceLookup({ column: 'w.id', kind: 'uuid' }, ({ select }) => select(workshops));

/** Workshops are a global catalog. */
export const workshopLoaders = (env: LoaderEnv) => ({
  workshop: workshop(env),
});
