import { byKey, uuidsOnly } from '@fleetgraph/paging';
import type { LoaderEnv } from '../kit';
import { workshops } from './tables';

/** Workshops are a global catalog. */
export const workshopLoaders = ({ select }: LoaderEnv) => ({
  workshop: byKey((keys) => select(workshops).whereIn('w.id', uuidsOnly(keys)), 'id', 'uuid'),
});
