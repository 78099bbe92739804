/**
 * Nested paged fields of the services areas, as relations for relationLoader (one LATERAL
 * statement per relation and level). Parents reach these relations only once resolved through a
 * visibility-filtered loader, so children are those of a visible parent; relations whose
 * children point elsewhere (alerts of a group's devices, a distributor's onboarding requests) only
 * follow visible assets.
 */
import type { RelationSpec } from '@fleetgraph/paging';
import { alertRelations } from './alerts/relations';
import { descriptionRelations } from './descriptions/relations';
import { driverServiceRelations } from './driver-services/relations';
import { logFetchRelations } from './log-fetches/relations';
import { onboardingRelations } from './onboarding/relations';
import { profileRelations } from './profiles/relations';
import { remoteDiagRelations } from './remote-diags/relations';
import { workshopRelations } from './workshops/relations';

export const serviceRelations = {
  ...descriptionRelations,
  ...alertRelations,
  ...workshopRelations,
  ...driverServiceRelations,
  ...onboardingRelations,
  ...logFetchRelations,
  ...remoteDiagRelations,
  ...profileRelations,
} satisfies Record<string, RelationSpec>;

export type ServiceRelationName = keyof typeof serviceRelations;
