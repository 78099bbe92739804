/**
 * The per-request reader of the maintenance subgraph, for one viewer and one instant (`now`, from the
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
import { fleetVisibility, vehicleVisibleTo, type ListScopeCache } from '@fleetgraph/visibility';
import { upcomingForVehicle, type TemplateRule, type UpcomingItem } from './domain/upcoming';
import { ensureUpcomingFresh } from './data/upcoming-store';
import { storedItemsOf, type ReadScope } from './data/upcoming-read';
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

export interface MaintenanceResources {
  knex: Knex;
  codec: CursorCodec;
  clock: () => Date;
  listScopes: ListScopeCache;
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

export function createReader(resources: MaintenanceResources, user: UserContext) {
  const { knex, codec } = resources;
  const viewer = user.uid;
  const now = resources.clock();
  const templates = once(() => templateRules(knex, viewer));
  const thresholds = once(() => thresholdsInForce(knex, viewer));

  /**
   * Upcoming work computed from the facts of the visible vehicles matching `filter` (the facts
   * statement with the service summaries), as every read did before the work was kept: what the
   * kept work must answer, so tests compare both.
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

  /** The kept work is brought up to date once per request, before its first read. */
  const fresh = once(() => ensureUpcomingFresh(knex, now));

  /** What a read of the kept work needs: templates, thresholds in force, fresh rows. */
  async function readScope(wanted?: (template: TemplateRule) => boolean): Promise<ReadScope> {
    const [rules, levels] = await Promise.all([templates(), thresholds(), fresh()]);
    return {
      knex,
      viewer,
      now,
      templates: rules,
      thresholds: levels,
      templateIds: wanted ? rules.filter(wanted).map((t) => t.id) : null,
    };
  }

  const upcomingByVehicle = new DataLoader<string, UpcomingItem[]>(async (ids) => {
    const items = await storedItemsOf(await readScope(), { vehicleIds: [...ids] });
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
    readScope,
    listScope: () => resources.listScopes.scopeOf(knex, viewer),
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

export type MaintenanceReader = ReturnType<typeof createReader>;
