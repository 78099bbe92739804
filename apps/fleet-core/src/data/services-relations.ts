/**
 * Nested paged fields of the services domains, as relations for relationLoader (one LATERAL
 * statement per relation and level). Parents reach these relations only once resolved through a
 * visibility-filtered loader, so children are those of a visible parent; relations whose
 * children point elsewhere (alerts of a group's devices, a distributor's onboarding requests) only
 * follow visible assets.
 */
import type { Knex } from 'knex';
import { visibleDevices } from '@fleetgraph/visibility';
import type { RelationSpec } from '@fleetgraph/paging';
import { personalDataRoleOf } from './roles';
import type { TableSpec } from './tables';
import * as s from './services-tables';

export const SERVICE_PAGE_RULES = {
  descriptions: { defaultSize: 20, maxSize: 100 },
  alertTemplates: { defaultSize: 20, maxSize: 100 },
  attachments: { defaultSize: 20, maxSize: 100 },
  alerts: { defaultSize: 50, maxSize: 500 },
  alertFeedbacks: { defaultSize: 50, maxSize: 500 },
  bookings: { defaultSize: 20, maxSize: 100 },
  campaigns: { defaultSize: 20, maxSize: 100 },
  clientIdentifications: { defaultSize: 50, maxSize: 200 },
  distributors: { defaultSize: 20, maxSize: 100 },
  staff: { defaultSize: 50, maxSize: 200 },
  requests: { defaultSize: 50, maxSize: 200 },
  workshops: { defaultSize: 20, maxSize: 100 },
  driverServices: { defaultSize: 20, maxSize: 100 },
  metrics: { defaultSize: 100, maxSize: 500 },
  logfetchActions: { defaultSize: 50, maxSize: 100 },
  logFetches: { defaultSize: 20, maxSize: 100 },
  remoteDiags: { defaultSize: 20, maxSize: 100 },
  profiles: { defaultSize: 20, maxSize: 100 },
} as const;

const from = (knex: Knex, spec: TableSpec) => knex(`${spec.table} as ${spec.alias}`);

const descriptionsOf = (name: string, subject: string): RelationSpec => ({
  name,
  parentType: 'text',
  child: s.descriptions,
  rules: SERVICE_PAGE_RULES.descriptions,
  children: (knex) =>
    from(knex, s.descriptions).where('ds.subject', subject).whereRaw('ds.subject_id = p.parent_id'),
});

const ofDevice = (
  name: string,
  spec: TableSpec,
  rules: { defaultSize: number; maxSize: number },
): RelationSpec => ({
  name,
  parentType: 'text',
  child: spec,
  rules,
  children: (knex) => from(knex, spec).whereRaw(`${spec.alias}.device_id = p.parent_id`),
});

export const serviceRelations = {
  accountDescriptions: descriptionsOf('Account.descriptions', 'ACCOUNT'),
  groupDescriptions: descriptionsOf('Group.descriptions', 'GROUP'),
  deviceDescriptions: descriptionsOf('Device.descriptions', 'DEVICE'),
  vehicleDescriptions: descriptionsOf('Vehicle.descriptions', 'VEHICLE'),
  driverDescriptions: descriptionsOf('Driver.descriptions', 'DRIVER'),
  templateAttachments: {
    name: 'AlertTemplate.attachments',
    parentType: 'uuid',
    child: s.alertAttachments,
    rules: SERVICE_PAGE_RULES.attachments,
    children: (knex) => from(knex, s.alertAttachments).whereRaw('aa.template_id = p.parent_id'),
  },
  deviceAlerts: ofDevice('Device.alerts', s.vehicleAlerts, SERVICE_PAGE_RULES.alerts),
  groupAlerts: {
    name: 'Group.alerts',
    parentType: 'uuid',
    child: s.vehicleAlerts,
    rules: SERVICE_PAGE_RULES.alerts,
    // The group and its descendants (all visible when the group is): their devices' alerts.
    children: (knex) =>
      from(knex, s.vehicleAlerts).whereRaw(
        `va.device_id in (select gd.device_id from fleet.group_devices gd
           join fleet.group_closure c on c.descendant_id = gd.group_id where c.ancestor_id = p.parent_id)`,
      ),
  },
  accountWorkshops: {
    name: 'Account.workshops',
    parentType: 'uuid',
    child: s.workshops,
    rules: SERVICE_PAGE_RULES.workshops,
    children: (knex) =>
      from(knex, s.workshops).whereRaw(
        `w.id in (select ow.workshop_id from fleet.organization_workshops ow
           join fleet.accounts a on a.organization_id = ow.organization_id where a.id = p.parent_id)`,
      ),
  },
  accountDistributors: {
    name: 'Account.distributors',
    parentType: 'uuid',
    child: s.distributors,
    rules: SERVICE_PAGE_RULES.distributors,
    children: (knex) =>
      from(knex, s.distributors).whereRaw(
        'od.organization_id = (select a.organization_id from fleet.accounts a where a.id = p.parent_id)',
      ),
  },
  driverServiceWorkshops: {
    name: 'DriverService.workshops',
    parentType: 'uuid',
    child: s.workshops,
    rules: SERVICE_PAGE_RULES.workshops,
    children: (knex) =>
      from(knex, s.workshops).whereRaw(
        'w.id in (select workshop_id from fleet.driver_service_workshops where driver_service_id = p.parent_id)',
      ),
  },
  distributorStaff: {
    name: 'OnboardingDistributor.staff',
    parentType: 'uuid',
    child: s.staff,
    rules: SERVICE_PAGE_RULES.staff,
    children: (knex) => from(knex, s.staff).whereRaw('os.distributor_id = p.parent_id'),
  },
  distributorRequests: {
    name: 'OnboardingDistributor.requests',
    parentType: 'uuid',
    child: s.requests,
    rules: SERVICE_PAGE_RULES.requests,
    // Requests name a vehicle (plate, VIN, notes): only those whose device the viewer sees; a
    // request with no device yet only for ADMIN / FLEET_MANAGER (the personal data rule).
    children: (knex, viewer) =>
      from(knex, s.requests)
        .whereRaw('orq.distributor_id = p.parent_id')
        .where((q) =>
          q
            .whereIn('orq.device_id', visibleDevices(knex, viewer))
            .orWhere((none) => none.whereNull('orq.device_id').whereExists(personalDataRoleOf(knex, viewer))),
        ),
  },
  deviceLogFetches: ofDevice('Device.logFetches', s.logFetches, SERVICE_PAGE_RULES.logFetches),
  deviceRemoteDiags: ofDevice('Device.remoteDiags', s.remoteDiags, SERVICE_PAGE_RULES.remoteDiags),
  deviceProfilePrivacies: ofDevice(
    'Device.profilePrivacies',
    s.profilePrivacies,
    SERVICE_PAGE_RULES.profiles,
  ),
  deviceProfileModes: ofDevice('Device.profileModes', s.profileModes, SERVICE_PAGE_RULES.profiles),
} satisfies Record<string, RelationSpec>;

export type ServiceRelationName = keyof typeof serviceRelations;
