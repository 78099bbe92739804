/**
 * Resolvers of the services domains: descriptions, alert templates, vehicle alerts and feedbacks,
 * bookings, workshops, driver services, onboarding, client identifications, campaigns, metrics,
 * log fetches, remote diagnostics, profiles, LPA, account roles and alert preferences.
 * Root lists page by keyset through @fleetgraph/paging; nested pages go through relationLoader.
 */
import { GraphQLScalarType } from 'graphql';
import type { Knex } from 'knex';
import {
  applyKeyset,
  badInput,
  fingerprint,
  pageRequest,
  toPage,
  type Page,
  type PageArgs,
  type PageRules,
} from '@fleetgraph/paging';
import { visibleDevices } from '@fleetgraph/visibility';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetLoaders } from '../loaders';
import { keyOf, selectColumns, type TableSpec } from '../data/tables';
import * as s from '../data/services-tables';
import { SERVICE_PAGE_RULES as RULES, type ServiceRelationName } from '../data/services-relations';
import { bookingColumns, ownOrganization, uuids, visibleBookings } from '../data/services-loaders';

type Ctx = SubgraphContext<FleetLoaders>;
type Row = Record<string, any>;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A root paged list: `base` selects the visible, filtered rows (no order, no limit, no columns);
 * `columns` (default: the table's) are selected for the page only; count runs only if selected.
 */
async function page<M>(
  loaders: FleetLoaders,
  name: string,
  spec: TableSpec,
  rules: PageRules,
  args: PageArgs,
  filters: Record<string, unknown>,
  base: Knex.QueryBuilder,
  columns: Array<string | Knex.Raw> = selectColumns(spec),
): Promise<Page<M>> {
  const request = pageRequest(loaders.codec, args, rules, fingerprint(name, filters));
  const rows = await applyKeyset(
    base.clone().select(columns),
    { columns: spec.order.columns, direction: spec.order.direction ?? 'asc' },
    request,
  );
  return toPage(loaders.codec, request, rows as M[], keyOf(spec) as (m: M) => unknown[], async () => {
    const row = (await base.clone().count('* as n').first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  });
}

const nested =
  (relation: ServiceRelationName) =>
  (parent: { id: string }, args: PageArgs & Record<string, unknown>, { loaders }: Ctx) =>
    loaders.services.relations[relation].load({ parentId: String(parent.id), args });

const from = (knex: Knex, spec: TableSpec) => knex(`${spec.table} as ${spec.alias}`);

// ---------------------------------------------------------------------------------------------
// LPA

const ICCID = /^\d{17,21}[\dF]$/i; // 18 to 22 characters, the last may be F
const ACTIVATION_CODE = /^LPA:1\$[^$\s]+\$[^$\s]*(\$.*)?$/;
const LPA_FIELDS = ['iccid', 'activationCode', 'smdpAddress', 'matchingId', 'nickname'] as const;

interface LpaParameters {
  iccid?: string | null;
  activationCode?: string | null;
  smdpAddress?: string | null;
  matchingId?: string | null;
  confirmationCode?: string | null;
  nickname?: string | null;
}

/** Refuses parameters that cannot work for the function (BAD_USER_INPUT naming the parameter). */
export function validateLpa(functionName: string, p: LpaParameters): void {
  const fail = (message: string, parameter: string) =>
    badInput(message, { argument: `parameters.${parameter}` });
  if (p.iccid != null && !ICCID.test(p.iccid))
    throw fail('iccid must have 18 to 22 digits (the last may be F).', 'iccid');
  if (p.activationCode != null && !ACTIVATION_CODE.test(p.activationCode)) {
    throw fail('activationCode must look like LPA:1$<SM-DP+ address>$<matching id>.', 'activationCode');
  }
  if (p.nickname != null && (p.nickname.length === 0 || p.nickname.length > 64)) {
    throw fail('nickname must have 1 to 64 characters.', 'nickname');
  }
  switch (functionName) {
    case 'DOWNLOAD_AND_ENABLE_PROFILE':
    case 'DOWNLOAD_PROFILE':
      if (!p.activationCode && !(p.smdpAddress && p.matchingId)) {
        throw fail(`${functionName} needs activationCode, or smdpAddress and matchingId.`, 'activationCode');
      }
      return;
    case 'ENABLE_PROFILE':
    case 'DISABLE_PROFILE':
    case 'DELETE_PROFILE':
      if (!p.iccid) throw fail(`${functionName} needs the iccid of the profile.`, 'iccid');
      return;
    case 'SET_NICKNAME':
      if (!p.iccid) throw fail('SET_NICKNAME needs the iccid of the profile.', 'iccid');
      if (!p.nickname) throw fail('SET_NICKNAME needs a nickname.', 'nickname');
      return;
    default:
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// Root queries

export const ServicesQuery = {
  async description(_: unknown, args: { subject: string; id: string }, { loaders }: Ctx) {
    const row = (await loaders.services.description.load(args.id)) as Row | null;
    return row && row.subject === args.subject ? row : null;
  },

  alertTemplate: (_: unknown, args: { id: string }, { loaders }: Ctx) =>
    loaders.services.alertTemplate.load(args.id),

  alertTemplates(_: unknown, args: PageArgs, { loaders }: Ctx) {
    const { knex, viewer } = loaders;
    const base = from(knex, s.alertTemplates).whereRaw(ownOrganization(knex, 'at', viewer));
    return page(loaders, 'alertTemplates', s.alertTemplates, RULES.alertTemplates, args, {}, base);
  },

  alertFeedbacks(
    _: unknown,
    args: PageArgs & { alertIds?: string[] | null; language?: string | null; status?: string | null },
    { loaders }: Ctx,
  ) {
    const { knex, viewer } = loaders;
    const filters = { alertIds: args.alertIds, language: args.language, status: args.status };
    const base = from(knex, s.alertFeedbacks).whereIn(
      'vf.alert_id',
      knex('fleet.vehicle_alerts as va')
        .select('va.id')
        .whereIn('va.device_id', visibleDevices(knex, viewer)),
    );
    if (args.alertIds) base.whereIn('vf.alert_id', uuids(args.alertIds));
    if (args.language) base.where('vf.language', args.language);
    if (args.status) base.where('vf.status', args.status);
    return page(loaders, 'alertFeedbacks', s.alertFeedbacks, RULES.alertFeedbacks, args, filters, base);
  },

  booking: (_: unknown, args: { id: string }, { loaders }: Ctx) => loaders.services.booking.load(args.id),

  bookings(_: unknown, args: PageArgs, { loaders }: Ctx) {
    const { knex, viewer } = loaders;
    return page(
      loaders,
      'bookings',
      s.bookings,
      RULES.bookings,
      args,
      {},
      visibleBookings(knex, viewer),
      bookingColumns(knex, viewer),
    );
  },

  campaign: (_: unknown, args: { id: string }, { loaders }: Ctx) => loaders.services.campaign.load(args.id),

  campaigns(_: unknown, args: PageArgs & { archived?: boolean | null }, { loaders }: Ctx) {
    const { knex, viewer } = loaders;
    const base = from(knex, s.campaigns).whereRaw(ownOrganization(knex, 'cp', viewer));
    if (!args.archived) base.whereNull('cp.archived_at');
    return page(
      loaders,
      'campaigns',
      s.campaigns,
      RULES.campaigns,
      args,
      { archived: Boolean(args.archived) },
      base,
    );
  },

  clientIdentifications(
    _: unknown,
    args: PageArgs & {
      code?: string | null;
      label?: string | null;
      distributorId?: string | null;
      clientReference?: string | null;
      defaultAccountId?: string | null;
      usable?: boolean | null;
      revoked?: boolean | null;
    },
    { loaders }: Ctx,
  ) {
    const { knex, viewer } = loaders;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const base = from(knex, s.clientIdentifications).whereRaw(ownOrganization(knex, 'ci', viewer));
    if (args.code != null) base.where('ci.code', args.code);
    if (args.label != null) base.whereILike('ci.label', `%${escapeLike(args.label)}%`);
    if (args.distributorId != null) base.whereIn('ci.distributor_id', uuids([args.distributorId]));
    if (args.clientReference != null) base.where('ci.client_reference', args.clientReference);
    if (args.defaultAccountId != null) base.whereIn('ci.default_account_id', uuids([args.defaultAccountId]));
    if (args.usable != null) base.where('ci.usable', args.usable);
    if (args.revoked != null) base.where('ci.revoked', args.revoked);
    return page(
      loaders,
      'clientIdentifications',
      s.clientIdentifications,
      RULES.clientIdentifications,
      args,
      filters,
      base,
    );
  },

  distributor: (_: unknown, args: { id: string }, { loaders }: Ctx) =>
    loaders.services.distributor.load(args.id),

  distributors(_: unknown, args: PageArgs & { isActive?: boolean | null }, { loaders }: Ctx) {
    const { knex, viewer } = loaders;
    const base = from(knex, s.distributors).whereRaw(ownOrganization(knex, 'od', viewer));
    if (args.isActive != null) base.where('od.is_active', args.isActive);
    return page(
      loaders,
      'distributors',
      s.distributors,
      RULES.distributors,
      args,
      { isActive: args.isActive },
      base,
    );
  },

  driverService: (_: unknown, args: { id: string }, { loaders }: Ctx) =>
    loaders.services.driverService.load(args.id),

  driverServices(_: unknown, args: PageArgs & { label?: string | null }, { loaders }: Ctx) {
    const { knex, viewer } = loaders;
    const base = from(knex, s.driverServices).whereRaw(ownOrganization(knex, 'dsv', viewer));
    if (args.label != null) base.whereILike('dsv.label', `%${escapeLike(args.label)}%`);
    return page(
      loaders,
      'driverServices',
      s.driverServices,
      RULES.driverServices,
      args,
      { label: args.label },
      base,
    );
  },

  metrics(
    _: unknown,
    args: PageArgs & {
      ids?: string[] | null;
      names?: string[] | null;
      nameContains?: string | null;
      rawUnit?: boolean | null;
    },
    { loaders }: Ctx,
  ) {
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const base = from(loaders.knex, s.metrics);
    if (args.ids) base.whereIn('m.id', args.ids);
    if (args.names) base.whereIn('m.name', args.names);
    if (args.nameContains != null) base.whereILike('m.name', `%${escapeLike(args.nameContains)}%`);
    if (args.rawUnit === true) base.whereRaw('m.raw_unit is not null and m.raw_unit is distinct from m.unit');
    if (args.rawUnit === false) base.whereRaw('(m.raw_unit is null or m.raw_unit = m.unit)');
    return page(loaders, 'metrics', s.metrics, RULES.metrics, args, filters, base);
  },

  logfetchActions(_: unknown, args: PageArgs, { loaders }: Ctx) {
    return page(
      loaders,
      'logfetchActions',
      s.logfetchActions,
      RULES.logfetchActions,
      args,
      {},
      from(loaders.knex, s.logfetchActions),
    );
  },

  async lpa(
    _: unknown,
    args: { imei: string; functionName: string; parameters: LpaParameters },
    { loaders }: Ctx,
  ) {
    const parameters = args.parameters ?? {};
    validateLpa(args.functionName, parameters);
    const device = await loaders.device.load(args.imei);
    if (!device) return null;
    const query = from(loaders.knex, s.lpaOperations)
      .select(selectColumns(s.lpaOperations))
      .where('lp.device_id', device.id)
      .where('lp.function_name', args.functionName)
      .orderBy([
        { column: 'lp.requested_at', order: 'desc' },
        { column: 'lp.id', order: 'desc' },
      ])
      .first();
    const columns: Record<(typeof LPA_FIELDS)[number], string> = {
      iccid: 'lp.iccid',
      activationCode: 'lp.activation_code',
      smdpAddress: 'lp.smdp_address',
      matchingId: 'lp.matching_id',
      nickname: 'lp.nickname',
    };
    for (const field of LPA_FIELDS)
      if (parameters[field] != null) query.where(columns[field], parameters[field]);
    const row = (await query) as Row | undefined;
    if (row) return row;
    return {
      id: null,
      imei: device.id,
      functionName: args.functionName,
      status: 'NOT_REQUESTED',
      ...Object.fromEntries(LPA_FIELDS.map((f) => [f, parameters[f] ?? null])),
      hasConfirmationCode: Boolean(parameters.confirmationCode),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Types

const account =
  (field: string) =>
  (row: Row, _: unknown, { loaders }: Ctx) =>
    row[field] ? loaders.account.load(String(row[field])) : null;
const device =
  (field: string) =>
  (row: Row, _: unknown, { loaders }: Ctx) =>
    row[field] ? loaders.device.load(String(row[field])) : null;
const workshop = (row: Row, _: unknown, { loaders }: Ctx) =>
  row.workshopId ? loaders.services.workshop.load(String(row.workshopId)) : null;

export const servicesTypes = {
  Account: {
    descriptions: nested('accountDescriptions'),
    workshops: nested('accountWorkshops'),
    distributors: nested('accountDistributors'),
    roles: (row: Row, _: unknown, { loaders }: Ctx) => loaders.services.roles.load(String(row.id)),
    alertPreference: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.alertPreference.load(String(row.id)),
  },
  AccountRole: { grantedBy: account('grantedById') },
  Group: {
    descriptions: nested('groupDescriptions'),
    alerts: nested('groupAlerts'),
  },
  Device: {
    descriptions: nested('deviceDescriptions'),
    alerts: nested('deviceAlerts'),
    async alertsState(row: Row, _: unknown, { loaders }: Ctx) {
      return (
        (await loaders.services.alertsState.load(String(row.id))) ?? {
          activeCount: 0,
          criticalCount: 0,
          totalCount: 0,
          highestActiveSeverity: null,
          activeTypes: [],
          lastAlertAt: null,
        }
      );
    },
    logFetches: nested('deviceLogFetches'),
    remoteDiags: nested('deviceRemoteDiags'),
    profilePrivacies: nested('deviceProfilePrivacies'),
    profilePrivacy: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.currentPrivacy.load(String(row.id)),
    profileModes: nested('deviceProfileModes'),
    profileMode: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.currentMode.load(String(row.id)),
  },
  Vehicle: { descriptions: nested('vehicleDescriptions') },
  Driver: { descriptions: nested('driverDescriptions') },
  AlertTemplate: { attachments: nested('templateAttachments') },
  VehicleAlert: {
    device: device('deviceId'),
    vehicle: (row: Row, _: unknown, { loaders }: Ctx) =>
      row.vehicleId ? loaders.vehicle.load(row.vehicleId) : null,
  },
  VehicleAlertFeedback: {
    alert: (row: Row, _: unknown, { loaders }: Ctx) => loaders.services.alert.load(String(row.alertId)),
    author: account('accountId'),
  },
  Booking: {
    workshop,
    vehicle: (row: Row, _: unknown, { loaders }: Ctx) =>
      row.vehicleId ? loaders.vehicle.load(row.vehicleId) : null,
  },
  DriverService: { workshops: nested('driverServiceWorkshops') },
  OnboardingDistributor: {
    provider: (row: Row, _: unknown, { loaders }: Ctx) =>
      row.providerId ? loaders.services.provider.load(String(row.providerId)) : null,
    workshop,
    staff: nested('distributorStaff'),
    requests: nested('distributorRequests'),
  },
  OnboardingRequest: { device: device('deviceId') },
  ClientIdentification: {
    distributor: (row: Row, _: unknown, { loaders }: Ctx) =>
      row.distributorId ? loaders.services.distributor.load(String(row.distributorId)) : null,
    defaultAccount: account('defaultAccountId'),
  },
  Campaign: {
    devicesStatus: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.campaignDevices.load(String(row.id)),
  },
  CampaignDevice: { device: device('deviceId') },
  Logfetch: {
    action: (row: Row, _: unknown, { loaders }: Ctx) =>
      loaders.services.logfetchAction.load(String(row.actionId)),
    requestedBy: account('requestedById'),
  },
  Lpa: {
    parameters: (row: Row) => ({
      ...Object.fromEntries(LPA_FIELDS.map((f) => [f, row[f] ?? null])),
      hasConfirmationCode: Boolean(row.hasConfirmationCode),
    }),
  },
};

/** Adds the services resolvers to the core ones (field maps of the same type are merged). */
export function withServices<R extends Record<string, unknown>>(core: R): R {
  const merged: Record<string, unknown> = { ...core };
  const extra: Record<string, unknown> = { ...servicesTypes, Query: ServicesQuery };
  for (const [type, fields] of Object.entries(extra)) {
    const existing = merged[type];
    merged[type] =
      existing && !(fields instanceof GraphQLScalarType)
        ? { ...(existing as object), ...(fields as object) }
        : fields;
  }
  return merged as R;
}
