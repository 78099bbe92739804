/**
 * Per-request loaders of the maintenance subgraph, for one viewer and one instant (`now`, from the
 * config's clock, fixed for the whole request). Statements per request do not depend on page
 * sizes: templates and thresholds in force are read once; upcoming work of any number of vehicles
 * is one statement per batch (vehicle facts with odometer, recent km and service summaries), with
 * one text whatever the number of ids, so it stays a named, planned-once statement.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import type { UserContext, Viewer } from '@fleetgraph/auth';
import {
  keyLookup,
  relationLoader,
  selectColumns,
  type CursorCodec,
  type RelationSpec,
} from '@fleetgraph/paging';
import { fleetVisibility, vehicleVisibleTo } from '@fleetgraph/visibility';
import { upcomingForVehicle, type TemplateRule, type UpcomingItem } from './domain/upcoming';
import {
  historySpec,
  templateRules,
  thresholdsInForce,
  vehicleFacts,
  visibleThresholds,
  thresholdSpec,
  type HistoryModel,
  type VehicleFilter,
} from './data/tables';

export interface MaintenanceServices {
  knex: Knex;
  codec: CursorCodec;
  clock: () => Date;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: unknown): id is string => typeof id === 'string' && UUID.test(id);

const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
};

/** Vehicle.maintenanceHistory; one object for the process, so its page statement is compiled once. */
const historyRelation: RelationSpec = {
  name: 'Vehicle.maintenanceHistory',
  parentType: 'uuid',
  child: historySpec,
  rules: { defaultSize: 20, maxSize: 100 },
  children: (k, v) =>
    k('maintenance.history as h')
      .whereRaw('h.vehicle_id = p.parent_id')
      .where(vehicleVisibleTo(k, v, 'h.vehicle_id')),
};

type ViewerParams = { viewer: Viewer };
const byId = (column: string) => ({ column, field: 'id', kind: 'uuid' as const });

/**
 * Lookups by id for entity references, compiled once per process with the viewer bound as a
 * value (keyLookup): one statement text whatever the batch size, null for what the viewer does
 * not see.
 */
const lookups = {
  history: keyLookup<ViewerParams>(byId('h.id'), ['viewer'], (knex, p) =>
    knex('maintenance.history as h')
      .select(selectColumns(historySpec))
      .where(vehicleVisibleTo(knex, p.viewer, 'h.vehicle_id')),
  ),
  threshold: keyLookup<ViewerParams>(byId('c.id'), ['viewer'], (knex, p) =>
    visibleThresholds(knex, p.viewer).select(selectColumns(thresholdSpec)),
  ),
};

export function createLoaders(services: MaintenanceServices, user: UserContext) {
  const { knex, codec } = services;
  const viewer = user.uid;
  const now = services.clock();
  const templates = once(() => templateRules(knex, viewer));
  const thresholds = once(() => thresholdsInForce(knex, viewer));

  /**
   * Upcoming work of the visible vehicles matching `filter`: the facts statement (with the service
   * summaries), named so PostgreSQL keeps its plan, beside the memoized 2, all three at once. JIT
   * is off on the subgraph's connections (app.ts), so no transaction is needed to scope it.
   */
  async function computeUpcoming(
    filter: VehicleFilter,
    wanted?: (template: TemplateRule) => boolean,
  ): Promise<UpcomingItem[]> {
    const [rules, levels, facts] = await Promise.all([
      templates(),
      thresholds(),
      vehicleFacts(knex, viewer, filter, now),
    ]);
    const items: UpcomingItem[] = [];
    for (const v of facts) items.push(...upcomingForVehicle(v, rules, v.services, levels, now, wanted));
    return items;
  }

  const upcomingByVehicle = new DataLoader<string, UpcomingItem[]>(async (ids) => {
    const items = await computeUpcoming({ vehicleIds: [...ids] });
    const byVehicle = new Map<string, UpcomingItem[]>();
    for (const item of items) {
      const list = byVehicle.get(item.vehicleId) ?? [];
      list.push(item);
      byVehicle.set(item.vehicleId, list);
    }
    return ids.map((id) => byVehicle.get(id) ?? []);
  });

  const visible = { viewer };
  // Whether a vehicle id is visible (libs/visibility fleetVisibility).
  const visibleVehicle = fleetVisibility(knex, viewer).vehicle;
  const historyById = lookups.history.loader<HistoryModel>(knex, visible);
  const thresholdById = lookups.threshold.loader<Record<string, unknown>>(knex, visible);

  return {
    knex,
    codec,
    viewer,
    now,
    templates,
    thresholds,
    computeUpcoming,
    upcomingByVehicle,
    visibleVehicle,
    historyById,
    thresholdById,
    vehicleHistory: relationLoader<HistoryModel>(knex, codec, viewer, historyRelation),
    async templateById(id: string) {
      const all = await templates();
      return all.find((t) => t.id.toLowerCase() === id.toLowerCase()) ?? null;
    },
  };
}

export type MaintenanceLoaders = ReturnType<typeof createLoaders>;
