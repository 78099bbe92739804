import {
  visibleAccounts,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from '@fleetgraph/visibility';
import { serviceLookup, type LoaderEnv } from '../kit';
import { descriptions } from './tables';

/** Subqueries of the subject ids (as text) a viewer may see, per description subject. */
export const DESCRIPTION_SUBJECTS = {
  ACCOUNT: visibleAccounts,
  GROUP: visibleGroups,
  DEVICE: visibleDevices,
  VEHICLE: visibleVehicles,
  DRIVER: visibleDrivers,
} as const;
export type DescriptionSubject = keyof typeof DESCRIPTION_SUBJECTS;

/** A description is visible when its subject is. */
const description = serviceLookup({ column: 'ds.id', kind: 'uuid' }, ({ knex, viewer, select }) =>
  select(descriptions).where((q) => {
    for (const [subject, visible] of Object.entries(DESCRIPTION_SUBJECTS)) {
      q.orWhere((one) =>
        one
          .where('ds.subject', subject)
          .whereRaw('ds.subject_id in (select v.id::text from ? v)', [visible(knex, viewer)]),
      );
    }
  }),
);

export const descriptionLoaders = (env: LoaderEnv) => ({
  description: description(env),
});
