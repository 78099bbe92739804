/**
 * Per-request loaders of the services areas, batched and filtered by visibility in SQL:
 * - organization-scoped rows (alert templates, bookings, campaigns, distributors, driver services,
 *   client identifications) only for the caller's organization;
 * - device-scoped rows (alerts, feedbacks, campaign device states, LPA operations) only for
 *   devices the caller sees (visibleDevices);
 * - descriptions only when their subject is visible;
 * - catalogs (workshops, onboarding providers, metrics, log-fetch actions) are global.
 * An id the caller may not see resolves to null, like an id that does not exist.
 */
import type { Knex } from 'knex';
import { relationLoaders, type CursorCodec } from '@fleetgraph/paging';
import { accountLoaders } from './accounts/loaders';
import { alertLoaders } from './alerts/loaders';
import { bookingLoaders } from './bookings/loaders';
import { campaignLoaders } from './campaigns/loaders';
import { descriptionLoaders } from './descriptions/loaders';
import { driverServiceLoaders } from './driver-services/loaders';
import { loaderEnv } from './kit';
import { logFetchLoaders } from './log-fetches/loaders';
import { onboardingLoaders } from './onboarding/loaders';
import { profileLoaders } from './profiles/loaders';
import { serviceRelations, type ServiceRelationName } from './relations';
import { workshopLoaders } from './workshops/loaders';

export function serviceLoaders(knex: Knex, codec: CursorCodec, viewer: string) {
  const relations = relationLoaders<ServiceRelationName>(knex, codec, viewer, serviceRelations);
  const env = loaderEnv(knex, viewer);
  return {
    relations,
    ...descriptionLoaders(env),
    ...alertLoaders(env),
    ...bookingLoaders(env),
    ...campaignLoaders(env),
    ...onboardingLoaders(env),
    ...driverServiceLoaders(env),
    ...workshopLoaders(env),
    ...logFetchLoaders(env),
    ...profileLoaders(env),
    ...accountLoaders(env),
  };
}

export type ServiceLoaders = ReturnType<typeof serviceLoaders>;
