/** Templates and criticality thresholds: root lists, lookups and their types. */
import { pageOf, type PageArgs } from '@fleetgraph/paging';
import type { TemplateRule } from '../domain/upcoming';
import { templateSpec, thresholdSpec, visibleTemplates, visibleThresholds } from '../data/tables';
import { isUuid } from '../reader';
import type { Ctx } from './common';

export const templateQueries = {
  maintenanceCriticalityThreshold: async (_: unknown, __: unknown, ctx: Ctx) =>
    (await ctx.reader.thresholds())[0] ?? null,

  maintenanceCriticalityThresholds: (_: unknown, args: PageArgs, ctx: Ctx) => {
    const { knex, codec, viewer } = ctx.reader;
    return pageOf({
      codec,
      name: 'maintenanceCriticalityThresholds',
      spec: thresholdSpec,
      args,
      filters: {},
      base: visibleThresholds(knex, viewer),
    });
  },

  maintenanceTemplate: (_: unknown, { id }: { id: string }, ctx: Ctx) =>
    isUuid(id) ? ctx.reader.templateById(id) : null,

  maintenanceTemplates: (
    _: unknown,
    args: PageArgs & { systems?: string[]; fromExternalService?: boolean; vehicleType?: string },
    ctx: Ctx,
  ) => {
    const { knex, codec, viewer } = ctx.reader;
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
      args,
      filters: {
        systems: args.systems,
        fromExternalService: args.fromExternalService,
        vehicleType: args.vehicleType,
      },
      base,
    });
  },
};

export const templateResolvers = {
  __resolveReference: (ref: { id: string }, ctx: Ctx) =>
    isUuid(ref.id) ? ctx.reader.templateById(ref.id) : null,
  interval: (t: TemplateRule) => ({
    distanceKm: t.intervalKm,
    months: t.intervalMonths,
    days: t.intervalDays,
  }),
};

export const thresholdResolvers = {
  __resolveReference: (ref: { id: string }, ctx: Ctx) =>
    isUuid(ref.id) ? ctx.reader.thresholdById.load(ref.id) : null,
  inForce: async (t: { id: string; inForce?: boolean }, _: unknown, ctx: Ctx) =>
    t.inForce ?? (await ctx.reader.thresholds()).some((x) => x.id === t.id),
};
