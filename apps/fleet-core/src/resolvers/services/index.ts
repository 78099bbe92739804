/**
 * fleet-core's services domain, one folder per area (descriptions, alerts, bookings, workshops,
 * driver services, onboarding, client identifications, campaigns, metrics, log fetches, remote
 * diagnostics, device profiles, LPA, account roles and alert preferences). Each area holds its
 * table specs, nested relations, loaders and a small resolver map; this file merges the maps into
 * fleet-core's own. Root lists page through rootPage (@fleetgraph/paging's pageOf); nested pages
 * go through relationLoader.
 *
 * The SDL stays in src/schema, the one folder composition reads, where the file name order is the
 * field order of the composed Query and entity types (hence the numbered services-devices-<n>-*
 * files, which keep the published supergraph unchanged): services-accounts (accounts, and the
 * Account fields of workshops and onboarding), services-alerts (alerts), services-descriptions
 * (descriptions), services-devices-1..6 (campaigns, metrics, log-fetches, remote-diags, profiles,
 * lpa), services-onboarding (onboarding, client-identifications), services-workshops (workshops,
 * driver-services, bookings).
 */
import { accountResolvers } from './accounts';
import { alertResolvers } from './alerts';
import { bookingResolvers } from './bookings';
import { campaignResolvers } from './campaigns';
import { clientIdentificationResolvers } from './client-identifications';
import { descriptionResolvers } from './descriptions';
import { driverServiceResolvers } from './driver-services';
import { logFetchResolvers } from './log-fetches';
import { lpaResolvers } from './lpa';
import { metricResolvers } from './metrics';
import { onboardingResolvers } from './onboarding';
import { profileResolvers } from './profiles';
import { remoteDiagResolvers } from './remote-diags';
import { workshopResolvers } from './workshops';

type ResolverMap = Record<string, object>;

const AREAS: readonly ResolverMap[] = [
  descriptionResolvers,
  alertResolvers,
  bookingResolvers,
  workshopResolvers,
  driverServiceResolvers,
  onboardingResolvers,
  clientIdentificationResolvers,
  campaignResolvers,
  metricResolvers,
  logFetchResolvers,
  remoteDiagResolvers,
  profileResolvers,
  lpaResolvers,
  accountResolvers,
];

/** Adds every area's resolvers to the core ones (field maps of the same type are merged). */
export function withServices<R extends ResolverMap>(core: R): R {
  const merged: ResolverMap = { ...core };
  for (const area of AREAS) {
    for (const [type, fields] of Object.entries(area)) merged[type] = { ...merged[type], ...fields };
  }
  return merged as R;
}
