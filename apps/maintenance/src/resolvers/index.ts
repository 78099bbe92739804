/**
 * Resolvers: root queries, the maintenance types, and the fields contributed to fleet-core's
 * Vehicle. Every lookup goes through the per-request loaders (visibility applied in SQL); an id the
 * caller cannot see answers null exactly like an unknown one; a malformed id answers null too.
 */
import { badInput, fingerprint, pageOf, pageRequest, type PageArgs } from '@fleetgraph/paging';
import { DateTimeScalar, type Resolvers, type SubgraphContext } from '@fleetgraph/subgraph-kit';
import { decodeUpcomingId, type TemplateRule, type UpcomingItem } from '../domain/upcoming';
import { visibleVehicles } from '@fleetgraph/visibility';
import {
  historySpec,
  templateSpec,
  thresholdSpec,
  visibleTemplates,
  visibleThresholds,
  type HistoryModel,
} from '../data/tables';
import { pageOfItems, type UpcomingSort } from '../data/upcoming-page';
import { storedItemsOf, walkCandidates, walkCount } from '../data/upcoming-read';
import { isUuid, type MaintenanceLoaders } from '../loaders';

type Ctx = SubgraphContext<MaintenanceLoaders>;

const UPCOMING_ROOT = { defaultSize: 50, maxSize: 500 };
const NAME = 'maintenanceUpcomings';
const UPCOMING_NESTED = { defaultSize: 20, maxSize: 100 };

function checkIds(name: string, ids: unknown): string[] | null {
  if (ids == null) return null;
  const list = ids as string[];
  const bad = list.findIndex((id) => !isUuid(id));
  if (bad >= 0) throw badInput(`${name}[${bad}] is not a valid id (a uuid).`, { argument: name });
  return list.map((id) => id.toLowerCase());
}

function checkCriticality(value: unknown): number | null {
  if (value == null) return null;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 9)
    throw badInput('minCriticality must be between 1 and 9.', { argument: 'minCriticality' });
  return value as number;
}

type ItemFilter = {
  systems?: string[] | null;
  templateIds?: string[] | null;
  minCriticality?: number | null;
};

/** The templates a filter keeps, or undefined when it keeps them all. */
function wantedTemplates(f: ItemFilter): ((t: TemplateRule) => boolean) | undefined {
  if (!f.systems && !f.templateIds) return undefined;
  return (t) =>
    (!f.systems || f.systems.includes(t.system)) &&
    (!f.templateIds || f.templateIds.includes(t.id.toLowerCase()));
}

function filterItems(items: UpcomingItem[], f: ItemFilter) {
  const wanted = wantedTemplates(f);
  return items.filter(
    (i) =>
      (!wanted || wanted(i.template)) &&
      (f.minCriticality == null || (i.criticality?.criticality ?? 0) >= f.minCriticality),
  );
}

const templateFields = {
  __resolveReference: (ref: { id: string }, ctx: Ctx) =>
    isUuid(ref.id) ? ctx.loaders.templateById(ref.id) : null,
  interval: (t: TemplateRule) => ({
    distanceKm: t.intervalKm,
    months: t.intervalMonths,
    days: t.intervalDays,
  }),
};

export const resolvers = {
  DateTime: DateTimeScalar,
  Query: {
    maintenanceCriticalityThreshold: async (_: unknown, __: unknown, ctx: Ctx) =>
      (await ctx.loaders.thresholds())[0] ?? null,

    maintenanceCriticalityThresholds: (_: unknown, args: PageArgs, ctx: Ctx) => {
      const { knex, codec, viewer } = ctx.loaders;
      return pageOf({
        codec,
        name: 'maintenanceCriticalityThresholds',
        spec: thresholdSpec,
        rules: { defaultSize: 20, maxSize: 100 },
        args,
        filters: {},
        base: visibleThresholds(knex, viewer),
      });
    },

    maintenanceHistorical: (_: unknown, { id }: { id: string }, ctx: Ctx) =>
      isUuid(id) ? ctx.loaders.historyById.load(id) : null,

    maintenanceTemplate: (_: unknown, { id }: { id: string }, ctx: Ctx) =>
      isUuid(id) ? ctx.loaders.templateById(id) : null,

    maintenanceUpcoming: async (_: unknown, { id }: { id: string }, ctx: Ctx) => {
      const key = decodeUpcomingId(id);
      if (!key) return null;
      const items = await ctx.loaders.upcomingByVehicle.load(key.vehicleId);
      return (
        items.find((i) => i.template.id.toLowerCase() === key.templateId && i.cycle === key.cycle) ?? null
      );
    },

    maintenanceTemplates: (
      _: unknown,
      args: PageArgs & { systems?: string[]; fromExternalService?: boolean; vehicleType?: string },
      ctx: Ctx,
    ) => {
      const { knex, codec, viewer } = ctx.loaders;
      const base = visibleTemplates(knex, viewer);
      if (args.systems) base.whereIn('t.system', args.systems);
      if (args.fromExternalService != null) base.where('t.from_external_service', args.fromExternalService);
      if (args.vehicleType != null)
        base.where((q) =>
          q.whereNull('t.vehicle_types').orWhereRaw('? = any(t.vehicle_types)', [args.vehicleType!]),
        );
      return pageOf({
        codec,
        name: 'maintenanceTemplates',
        spec: templateSpec,
        rules: { defaultSize: 50, maxSize: 200 },
        args,
        filters: {
          systems: args.systems,
          fromExternalService: args.fromExternalService,
          vehicleType: args.vehicleType,
        },
        base,
      });
    },

    maintenanceHistoricals: (
      _: unknown,
      args: PageArgs & {
        vehicleIds?: string[];
        templateIds?: string[];
        systems?: string[];
        doneAfter?: Date;
        doneBefore?: Date;
      },
      ctx: Ctx,
    ) => {
      const { knex, codec, viewer } = ctx.loaders;
      const vehicleIds = checkIds('vehicleIds', args.vehicleIds);
      const templateIds = checkIds('templateIds', args.templateIds);
      const base = knex('maintenance.history as h').whereIn('h.vehicle_id', visibleVehicles(knex, viewer));
      if (vehicleIds) base.whereIn('h.vehicle_id', vehicleIds);
      if (templateIds) base.whereIn('h.template_id', templateIds);
      if (args.systems)
        base.whereIn(
          'h.template_id',
          knex('maintenance.templates as st').select('st.id').whereIn('st.system', args.systems),
        );
      if (args.doneAfter) base.where('h.done_at', '>=', args.doneAfter);
      if (args.doneBefore) base.where('h.done_at', '<', args.doneBefore);
      return pageOf({
        codec,
        name: 'maintenanceHistoricals',
        spec: historySpec,
        rules: { defaultSize: 50, maxSize: 500 },
        args,
        filters: {
          vehicleIds,
          templateIds,
          systems: args.systems,
          doneAfter: args.doneAfter,
          doneBefore: args.doneBefore,
        },
        base,
      });
    },

    maintenanceUpcomings: async (
      _: unknown,
      args: PageArgs & {
        vehicleIds?: string[];
        groupIds?: string[];
        systems?: string[];
        templateIds?: string[];
        minCriticality?: number;
        sort?: UpcomingSort;
      },
      ctx: Ctx,
    ) => {
      const vehicleIds = checkIds('vehicleIds', args.vehicleIds);
      const groupIds = checkIds('groupIds', args.groupIds);
      const templateIds = checkIds('templateIds', args.templateIds);
      const minCriticality = checkCriticality(args.minCriticality);
      const sort = args.sort ?? 'URGENCY';
      const filters = { vehicleIds, groupIds, systems: args.systems, templateIds, minCriticality };
      // Check the page arguments before computing anything.
      const request = pageOfItems(ctx.loaders.codec, NAME, [], sort, args, UPCOMING_ROOT, filters);
      if ((vehicleIds && vehicleIds.length === 0) || (groupIds && groupIds.length === 0)) return request;
      const wanted = wantedTemplates({ systems: args.systems, templateIds });
      const [scope, listScope] = await Promise.all([
        ctx.loaders.readScope(wanted),
        vehicleIds || groupIds ? null : ctx.loaders.listScope(),
      ]);
      if (listScope?.shape === 'per-row' && listScope.organizationId) {
        // A large fleet seen from the top: walk the kept work in the page's order (upcoming-read.ts).
        const page = pageRequest(
          ctx.loaders.codec,
          args,
          UPCOMING_ROOT,
          fingerprint(NAME, { ...filters, sort }),
        );
        const walk = {
          organizationId: listScope.organizationId,
          sort,
          after: page.after,
          limit: page.size + 1,
          minCriticality,
        };
        const candidates = await walkCandidates(scope, walk);
        return pageOfItems(
          ctx.loaders.codec,
          NAME,
          filterItems(candidates, { minCriticality }),
          sort,
          args,
          UPCOMING_ROOT,
          filters,
          () => walkCount(scope, walk),
        );
      }
      const items = await storedItemsOf(scope, { vehicleIds, groupIds });
      return pageOfItems(
        ctx.loaders.codec,
        NAME,
        filterItems(items, { minCriticality }),
        sort,
        args,
        UPCOMING_ROOT,
        filters,
      );
    },
  },

  MaintenanceTemplate: templateFields,

  MaintenanceCriticalityThreshold: {
    __resolveReference: (ref: { id: string }, ctx: Ctx) =>
      isUuid(ref.id) ? ctx.loaders.thresholdById.load(ref.id) : null,
    inForce: async (t: { id: string; inForce?: boolean }, _: unknown, ctx: Ctx) =>
      t.inForce ?? (await ctx.loaders.thresholds()).some((x) => x.id === t.id),
  },

  MaintenanceHistorical: {
    __resolveReference: (ref: { id: string }, ctx: Ctx) =>
      isUuid(ref.id) ? ctx.loaders.historyById.load(ref.id) : null,
    vehicle: (h: HistoryModel) => ({ __typename: 'Vehicle', id: h.vehicleId }),
    template: (h: HistoryModel, _: unknown, ctx: Ctx) => ctx.loaders.templateById(h.templateId),
  },

  MaintenanceUpcoming: {
    template: (u: UpcomingItem) => u.template,
    vehicle: (u: UpcomingItem) => ({ __typename: 'Vehicle', id: u.vehicleId }),
    criticality: (u: UpcomingItem) => u.criticality,
    currentMileage: (u: UpcomingItem) => u.currentMileageKm,
    averageDailyDistance: (u: UpcomingItem) => Math.round(u.averageDailyKm * 100) / 100,
    baseMileage: (u: UpcomingItem) => u.baseMileageKm,
  },

  Vehicle: {
    __resolveReference: async (ref: { id: string }, ctx: Ctx) =>
      isUuid(ref.id) && (await ctx.loaders.visibleVehicle.load(ref.id)) ? { id: ref.id } : null,
    maintenanceUpcoming: async (
      v: { id: string },
      args: PageArgs & { systems?: string[]; minCriticality?: number },
      ctx: Ctx,
    ) => {
      const minCriticality = checkCriticality(args.minCriticality);
      const filters = { vehicle: v.id.toLowerCase(), systems: args.systems, minCriticality };
      pageOfItems(
        ctx.loaders.codec,
        'Vehicle.maintenanceUpcoming',
        [],
        'URGENCY',
        args,
        UPCOMING_NESTED,
        filters,
      );
      const items = await ctx.loaders.upcomingByVehicle.load(v.id.toLowerCase());
      return pageOfItems(
        ctx.loaders.codec,
        'Vehicle.maintenanceUpcoming',
        filterItems(items, { systems: args.systems, minCriticality }),
        'URGENCY',
        args,
        UPCOMING_NESTED,
        filters,
      );
    },
    maintenanceHistory: (v: { id: string }, args: PageArgs & Record<string, unknown>, ctx: Ctx) =>
      ctx.loaders.vehicleHistory.load({ parentId: v.id.toLowerCase(), args }),
  },
} as unknown as Resolvers<MaintenanceLoaders>;
