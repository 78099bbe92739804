/** Service history: the root list, a record by id, and its type. */
import { pageOf, type PageArgs } from '@fleetgraph/paging';
import { visibleVehicles } from '@fleetgraph/visibility';
import { historySpec, type HistoryModel } from '../data/tables';
import { isUuid } from '../reader';
import { checkIds, type Ctx } from './common';

export const historyQueries = {
  maintenanceHistorical: (_: unknown, { id }: { id: string }, ctx: Ctx) =>
    isUuid(id) ? ctx.reader.historyById.load(id) : null,

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
    const { knex, codec, viewer } = ctx.reader;
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
};

export const historyResolvers = {
  __resolveReference: (ref: { id: string }, ctx: Ctx) =>
    isUuid(ref.id) ? ctx.reader.historyById.load(ref.id) : null,
  vehicle: (h: HistoryModel) => ({ __typename: 'Vehicle', id: h.vehicleId }),
  template: (h: HistoryModel, _: unknown, ctx: Ctx) => ctx.reader.templateById(h.templateId),
};
