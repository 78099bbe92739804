import { byKey, uuidsOnly } from '@fleetgraph/paging';
import {
  visibleAccounts,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from '@fleetgraph/visibility';
import type { LoaderEnv } from '../kit';
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

export const descriptionLoaders = ({ knex, viewer, select }: LoaderEnv) => ({
  /** A description is visible when its subject is. */
  description: byKey(
    (keys) =>
      select(descriptions)
        .whereIn('ds.id', uuidsOnly(keys))
        .where((q) => {
          for (const [subject, visible] of Object.entries(DESCRIPTION_SUBJECTS)) {
            q.orWhere((one) =>
              one
                .where('ds.subject', subject)
                .whereRaw('ds.subject_id in (select v.id::text from ? v)', [visible(knex, viewer)]),
            );
          }
        }),
    'id',
    'uuid',
  ),
});
