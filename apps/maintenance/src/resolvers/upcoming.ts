/**
 * Upcoming work: the root list (a walk of the kept work in page order for a large fleet seen from
 * the top, else the kept work of the vehicles asked), a work item by id, its type, and what it
 * adds to fleet-core's Vehicle.
 */
import { fingerprint, pageRequest, type PageArgs } from '@fleetgraph/paging';
import { decodeUpcomingId, type UpcomingItem } from '../domain/upcoming';
import { pageOfItems, type UpcomingSort } from '../data/upcoming-page';
import { storedItemsOf, walkCandidates, walkCount } from '../data/upcoming-read';
import { isUuid } from '../reader';
import { checkCriticality, checkIds, filterItems, wantedTemplates, type Ctx } from './common';

const NAME = 'maintenanceUpcomings';

export const upcomingQueries = {
  maintenanceUpcoming: async (_: unknown, { id }: { id: string }, ctx: Ctx) => {
    const key = decodeUpcomingId(id);
    if (!key) return null;
    const items = await ctx.reader.upcomingByVehicle.load(key.vehicleId);
    return items.find((i) => i.template.id.toLowerCase() === key.templateId && i.cycle === key.cycle) ?? null;
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
    const request = pageOfItems(ctx.reader.codec, NAME, [], sort, args, filters);
    if ((vehicleIds && vehicleIds.length === 0) || (groupIds && groupIds.length === 0)) return request;
    const wanted = wantedTemplates({ systems: args.systems, templateIds });
    const [scope, listScope] = await Promise.all([
      ctx.reader.readScope(wanted),
      vehicleIds || groupIds ? null : ctx.reader.listScope(),
    ]);
    if (listScope?.shape === 'per-row' && listScope.organizationId) {
      // A large fleet seen from the top: walk the kept work in the page's order (upcoming-read.ts).
      const page = pageRequest(ctx.reader.codec, args, undefined, fingerprint(NAME, { ...filters, sort }));
      const walk = {
        organizationId: listScope.organizationId,
        sort,
        after: page.after,
        limit: page.size + 1,
        minCriticality,
      };
      const candidates = await walkCandidates(scope, walk);
      return pageOfItems(
        ctx.reader.codec,
        NAME,
        filterItems(candidates, { minCriticality }),
        sort,
        args,
        filters,
        () => walkCount(scope, walk),
      );
    }
    const items = await storedItemsOf(scope, { vehicleIds, groupIds });
    return pageOfItems(ctx.reader.codec, NAME, filterItems(items, { minCriticality }), sort, args, filters);
  },
};

export const upcomingResolvers = {
  template: (u: UpcomingItem) => u.template,
  vehicle: (u: UpcomingItem) => ({ __typename: 'Vehicle', id: u.vehicleId }),
  criticality: (u: UpcomingItem) => u.criticality,
  currentMileage: (u: UpcomingItem) => u.currentMileageKm,
  averageDailyDistance: (u: UpcomingItem) => Math.round(u.averageDailyKm * 100) / 100,
  baseMileage: (u: UpcomingItem) => u.baseMileageKm,
};

export const vehicleResolvers = {
  __resolveReference: async (ref: { id: string }, ctx: Ctx) =>
    isUuid(ref.id) && (await ctx.reader.visibleVehicle.load(ref.id)) ? { id: ref.id } : null,
  maintenanceUpcoming: async (
    v: { id: string },
    args: PageArgs & { systems?: string[]; minCriticality?: number },
    ctx: Ctx,
  ) => {
    const minCriticality = checkCriticality(args.minCriticality);
    const filters = { vehicle: v.id.toLowerCase(), systems: args.systems, minCriticality };
    pageOfItems(ctx.reader.codec, 'Vehicle.maintenanceUpcoming', [], 'URGENCY', args, filters);
    const items = await ctx.reader.upcomingByVehicle.load(v.id.toLowerCase());
    return pageOfItems(
      ctx.reader.codec,
      'Vehicle.maintenanceUpcoming',
      filterItems(items, { systems: args.systems, minCriticality }),
      'URGENCY',
      args,
      filters,
    );
  },
  maintenanceHistory: (v: { id: string }, args: PageArgs & Record<string, unknown>, ctx: Ctx) =>
    ctx.reader.vehicleHistory.load({ parentId: v.id.toLowerCase(), args }),
};
