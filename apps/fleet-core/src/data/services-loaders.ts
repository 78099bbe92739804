/**
 * Per-request loaders of the services domains, batched and filtered by visibility in SQL:
 * - organization-scoped rows (alert templates, bookings, campaigns, distributors, driver services,
 *   client identifications) only for the caller's organization;
 * - device-scoped rows (alerts, feedbacks, campaign device states, LPA operations) only for
 *   devices the caller sees (visibleDevices);
 * - descriptions only when their subject is visible;
 * - catalogs (workshops, onboarding providers, metrics, log-fetch actions) are global.
 * An id the caller may not see resolves to null, like an id that does not exist.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import type { CursorCodec } from '@fleetgraph/paging';
import {
  visibleAccounts,
  visibleDevices,
  visibleDrivers,
  visibleGroups,
  visibleVehicles,
} from '@fleetgraph/visibility';
import { byKey, normalizeKey, type KeyKind } from '@fleetgraph/paging';
import { relationLoader } from '@fleetgraph/paging';
import { PERSONAL_DATA_ROLES, personalDataRoleOf } from './roles';
import { serviceRelations, type ServiceRelationName } from './services-relations';
import { selectColumns, type TableSpec } from './tables';
import * as s from './services-tables';

type Row = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuids = (keys: readonly string[]) => keys.filter((k) => UUID.test(k));

export { PERSONAL_DATA_ROLES } from './roles';

/** `<alias>.organization_id = <the caller's organization>` */
export const ownOrganization = (knex: Knex, alias: string, viewer: string) =>
  knex.raw(`${alias}.organization_id = (select organization_id from fleet.accounts where id = ?)`, [viewer]);

/** Subqueries of the subject ids (as text) a viewer may see, per description subject. */
export const DESCRIPTION_SUBJECTS = {
  ACCOUNT: visibleAccounts,
  GROUP: visibleGroups,
  DEVICE: visibleDevices,
  VEHICLE: visibleVehicles,
  DRIVER: visibleDrivers,
} as const;
export type DescriptionSubject = keyof typeof DESCRIPTION_SUBJECTS;

/** Bookings a viewer sees: of its organization, and its own or for a vehicle it sees. */
export function visibleBookings(knex: Knex, viewer: string): Knex.QueryBuilder {
  return knex('fleet.bookings as b')
    .whereRaw(ownOrganization(knex, 'b', viewer))
    .where((q) => q.where('b.account_id', viewer).orWhereIn('b.vehicle_id', visibleVehicles(knex, viewer)));
}

/**
 * The booking columns, personal ones included only where the rule allows: the booking's own user,
 * or an account holding ADMIN or FLEET_MANAGER (bookings are only ever visible within the
 * caller's organization). Otherwise the database sends null.
 */
export function bookingColumns(knex: Knex, viewer: string): Array<string | Knex.Raw> {
  const allowed = `(b.account_id = ? or exists (select 1 from fleet.account_roles r where r.account_id = ? and r.role in (${PERSONAL_DATA_ROLES.map(() => '?').join(', ')})))`;
  const personal = (column: string, field: string) =>
    knex.raw(`case when ${allowed} then b.${column} end as "${field}"`, [
      viewer,
      viewer,
      ...PERSONAL_DATA_ROLES,
    ]);
  return [
    ...selectColumns(s.bookings),
    personal('user_email', 'userEmail'),
    personal('user_name', 'userName'),
    personal('user_phone_number', 'userPhoneNumber'),
  ];
}

/** Rows grouped by `field`, keys normalized like byKey's (uuid keys lowercased: see KeyKind). */
function groupedBy<M extends Row>(
  query: (keys: readonly string[]) => Promise<M[]>,
  field: string,
  kind: KeyKind,
) {
  const normalize = normalizeKey(kind);
  return new DataLoader<string, M[], string>(
    async (given) => {
      const keys = given.map(normalize);
      const rows = await query(keys);
      const map = new Map<string, M[]>();
      for (const row of rows) {
        const key = normalize(String(row[field]));
        map.set(key, [...(map.get(key) ?? []), row]);
      }
      return keys.map((key) => map.get(key) ?? []);
    },
    { cacheKeyFn: normalize },
  );
}

export function serviceLoaders(knex: Knex, codec: CursorCodec, viewer: string) {
  const select = (spec: TableSpec) => knex(`${spec.table} as ${spec.alias}`).select(selectColumns(spec));
  const relations = Object.fromEntries(
    Object.entries(serviceRelations).map(([name, spec]) => [name, relationLoader(knex, codec, viewer, spec)]),
  ) as { [K in ServiceRelationName]: ReturnType<typeof relationLoader<any>> };
  const ownOrg = (alias: string) => ownOrganization(knex, alias, viewer);

  return {
    relations,
    alertTemplate: byKey(
      (keys) => select(s.alertTemplates).whereIn('at.id', uuids(keys)).whereRaw(ownOrg('at')),
      'id',
      'uuid',
    ),
    alert: byKey(
      (keys) =>
        select(s.vehicleAlerts)
          .whereIn('va.id', uuids(keys))
          .whereIn('va.device_id', visibleDevices(knex, viewer)),
      'id',
      'uuid',
    ),
    /** Aggregated alert state per device (devices reach here only once visible). */
    alertsState: byKey(
      (keys) =>
        knex('fleet.vehicle_alerts as va')
          .select(
            'va.device_id as deviceId',
            knex.raw(`count(*) filter (where va.status = 'ACTIVE')::int as "activeCount"`),
            knex.raw(
              `count(*) filter (where va.status = 'ACTIVE' and va.severity = 'CRITICAL')::int as "criticalCount"`,
            ),
            knex.raw(`count(*)::int as "totalCount"`),
            knex.raw(`max(va.started_at) as "lastAlertAt"`),
            knex.raw(
              `coalesce(array_agg(distinct va.type) filter (where va.status = 'ACTIVE'), '{}') as "activeTypes"`,
            ),
            knex.raw(
              `(array_agg(va.severity order by case va.severity when 'CRITICAL' then 0 when 'WARNING' then 1 else 2 end)
                 filter (where va.status = 'ACTIVE'))[1] as "highestActiveSeverity"`,
            ),
          )
          .whereIn('va.device_id', keys as string[])
          .groupBy('va.device_id'),
      'deviceId',
      'text',
    ),
    booking: byKey(
      (keys) =>
        visibleBookings(knex, viewer).select(bookingColumns(knex, viewer)).whereIn('b.id', uuids(keys)),
      'id',
      'uuid',
    ),
    campaign: byKey(
      (keys) => select(s.campaigns).whereIn('cp.id', uuids(keys)).whereRaw(ownOrg('cp')),
      'id',
      'uuid',
    ),
    /** Device states of a campaign, visible devices only, by device id. */
    campaignDevices: groupedBy(
      (keys) =>
        knex('fleet.campaign_devices as cd')
          .select(
            'cd.campaign_id as campaignId',
            'cd.device_id as deviceId',
            'cd.status',
            'cd.error_message as errorMessage',
            'cd.updated_at as updatedAt',
          )
          .whereIn('cd.campaign_id', uuids(keys))
          .whereIn('cd.device_id', visibleDevices(knex, viewer))
          .orderBy('cd.device_id'),
      'campaignId',
      'uuid',
    ),
    /** A description is visible when its subject is. */
    description: byKey(
      (keys) =>
        select(s.descriptions)
          .whereIn('ds.id', uuids(keys))
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
    distributor: byKey(
      (keys) => select(s.distributors).whereIn('od.id', uuids(keys)).whereRaw(ownOrg('od')),
      'id',
      'uuid',
    ),
    driverService: byKey(
      (keys) => select(s.driverServices).whereIn('dsv.id', uuids(keys)).whereRaw(ownOrg('dsv')),
      'id',
      'uuid',
    ),
    workshop: byKey((keys) => select(s.workshops).whereIn('w.id', uuids(keys)), 'id', 'uuid'),
    provider: byKey((keys) => select(s.providers).whereIn('op.id', uuids(keys)), 'id', 'uuid'),
    logfetchAction: byKey(
      (keys) => select(s.logfetchActions).whereIn('la.id', keys as string[]),
      'id',
      'text',
    ),
    currentPrivacy: byKey(
      (keys) =>
        select(s.profilePrivacies)
          .whereIn('pp.device_id', keys as string[])
          .whereNull('pp.ended_at')
          .distinctOn('pp.device_id')
          .orderBy([{ column: 'pp.device_id' }, { column: 'pp.started_at', order: 'desc' }]),
      'deviceId',
      'text',
    ),
    currentMode: byKey(
      (keys) =>
        select(s.profileModes)
          .whereIn('pm.device_id', keys as string[])
          .whereNull('pm.ended_at')
          .distinctOn('pm.device_id')
          .orderBy([{ column: 'pm.device_id' }, { column: 'pm.started_at', order: 'desc' }]),
      'deviceId',
      'text',
    ),
    roles: groupedBy(
      (keys) =>
        knex('fleet.account_roles as r')
          .select(
            'r.account_id as accountId',
            'r.role as name',
            'r.granted_at as grantedAt',
            'r.granted_by as grantedById',
          )
          .whereIn('r.account_id', uuids(keys))
          .orderBy(['r.account_id', 'r.role']),
      'accountId',
      'uuid',
    ),
    /**
     * Alert preferences: the account's own, or any account of the organization for an ADMIN or
     * FLEET_MANAGER (accounts reach here only once visible, hence of the caller's organization).
     */
    alertPreference: byKey(
      (keys) =>
        knex('fleet.account_alert_preferences as ap')
          .select(
            'ap.account_id as accountId',
            'ap.channels',
            'ap.minimum_severity as minimumSeverity',
            'ap.digest',
            'ap.language',
            'ap.quiet_hours_start as quietHoursStart',
            'ap.quiet_hours_end as quietHoursEnd',
            'ap.muted_types as mutedTypes',
            'ap.updated_at as updatedAt',
          )
          .whereIn('ap.account_id', uuids(keys))
          .where((q) => q.where('ap.account_id', viewer).orWhereExists(personalDataRoleOf(knex, viewer))),
      'accountId',
      'uuid',
    ),
  };
}

export type ServiceLoaders = ReturnType<typeof serviceLoaders>;
