/**
 * The maintenance tables as models (explicit column lists), and reads of fleet-core's contract.
 * Visibility: templates and thresholds are global (organization_id null) or the caller's
 * organization's; history follows the vehicle's visibility.
 */
import { arrayParameter } from '@fleetgraph/db';
import type { Viewer } from '@fleetgraph/auth';
import type { Knex } from 'knex';
import type { TableSpec } from '@fleetgraph/paging';
import { organizationOf, visibleVehicles } from '@fleetgraph/visibility';
import type { ServiceSummary, TemplateRule, Threshold, VehicleFacts } from '../domain/upcoming';
import { AVERAGE_WINDOW_DAYS, DAY_MS } from '../domain/upcoming';

export const TEMPLATE_COLUMNS = {
  id: 't.id',
  organizationId: 't.organization_id',
  description: 't.description',
  system: 't.system',
  fromExternalService: 't.from_external_service',
  intervalKm: 't.interval_km',
  intervalMonths: 't.interval_months',
  intervalDays: 't.interval_days',
  vehicleTypes: 't.vehicle_types',
  fuelTypes: 't.fuel_types',
};

export const selectAs = (columns: Record<string, string>) =>
  Object.entries(columns).map(([field, column]) => `${column} as ${field}`);

export const templateSpec: TableSpec = {
  table: 'maintenance.templates',
  alias: 't',
  columns: Object.fromEntries(Object.entries(TEMPLATE_COLUMNS).map(([k, v]) => [k, v.slice(2)])),
  order: { columns: ['t.description', 't.id'], fields: ['description', 'id'] },
};

export const thresholdSpec: TableSpec = {
  table: 'maintenance.criticality_thresholds',
  alias: 'c',
  columns: {
    id: 'id',
    organizationId: 'organization_id',
    code: 'code',
    criticality: 'criticality',
    remainingDistance: 'remaining_distance_km',
    remainingDuration: 'remaining_days',
    description: 'description',
  },
  order: { columns: ['c.criticality', 'c.id'], fields: ['criticality', 'id'], direction: 'desc' },
};

export const historySpec: TableSpec = {
  table: 'maintenance.history',
  alias: 'h',
  columns: {
    id: 'id',
    vehicleId: 'vehicle_id',
    templateId: 'template_id',
    mileage: 'mileage_km',
    date: 'done_at',
    notes: 'notes',
    fromExternalService: 'from_external_service',
  },
  order: { columns: ['h.done_at', 'h.id'], fields: ['date', 'id'], direction: 'desc' },
};

// A type, not an interface: lookups (keyLookup) take record-shaped models.
export type HistoryModel = {
  id: string;
  vehicleId: string;
  templateId: string;
  mileage: number;
  date: Date;
  notes: string | null;
  fromExternalService: boolean;
};

/** Templates visible to the viewer: global ones and its organization's. */
export function visibleTemplates(knex: Knex, viewer: Viewer): Knex.QueryBuilder {
  return knex('maintenance.templates as t').where((q) =>
    q.whereNull('t.organization_id').orWhereIn('t.organization_id', organizationOf(knex, viewer)),
  );
}

/** Thresholds visible to the viewer, with `inForce` (its organization's own set, else the global one). */
export function visibleThresholds(knex: Knex, viewer: Viewer): Knex.QueryBuilder {
  return knex('maintenance.criticality_thresholds as c')
    .where((q) =>
      q.whereNull('c.organization_id').orWhereIn('c.organization_id', organizationOf(knex, viewer)),
    )
    .select(
      knex.raw(
        `(c.organization_id is not null or not exists (
           select 1 from maintenance.criticality_thresholds o
            where o.organization_id = (select a.organization_id from fleet_contract.accounts_v1 a where a.id = ?))
         ) as "inForce"`,
        [viewer],
      ),
    );
}

/** The thresholds in force for the viewer's organization (one statement). */
export async function thresholdsInForce(
  knex: Knex,
  viewer: Viewer,
): Promise<Array<Threshold & { inForce: true }>> {
  const rows = await knex.raw(
    `with org as (select a.organization_id from fleet_contract.accounts_v1 a where a.id = ?)
     select c.id, c.organization_id as "organizationId", c.code, c.criticality,
            c.remaining_distance_km as "remainingDistance", c.remaining_days as "remainingDuration",
            c.description, true as "inForce"
       from maintenance.criticality_thresholds c
      where c.organization_id = (select organization_id from org)
         or (c.organization_id is null and not exists (
               select 1 from maintenance.criticality_thresholds o where o.organization_id = (select organization_id from org)))
      order by c.criticality desc, c.id desc`,
    [viewer],
  );
  return rows.rows;
}

export interface VehicleFilter {
  vehicleIds?: string[] | null;
  groupIds?: string[] | null;
}

const day = (t: Date) => t.toISOString().slice(0, 10);

/**
 * The recent-distance window: the AVERAGE_WINDOW_DAYS whole UTC days before `now`'s day, [from,
 * to) as ISO dates, the days fleet-core's daily distances count trips in (the UTC day of each
 * trip's end). Today's trips count from tomorrow on. Whole days only, so a vehicle's 30-day km is
 * one probe of at most AVERAGE_WINDOW_DAYS daily rows, whatever its trips.
 */
export function recentDays(now: Date): { from: string; to: string } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { from: day(new Date(today - AVERAGE_WINDOW_DAYS * DAY_MS)), to: day(new Date(today)) };
}

/** A vehicle's facts with its service summaries: everything upcoming work needs of one vehicle. */
export type VehicleWithServices = VehicleFacts & { services: ServiceSummary[] };

/** A summary as the facts statement sends it (summary_json): [template, count, last km, last ms, max km]. */
type SummaryTuple = [string, number, number, number, number];

/**
 * The facts statement: the visible vehicles (filtered) with their latest odometer reading, the
 * km of the AVERAGE_WINDOW_DAYS whole days before today (recentDays, from fleet-core's daily
 * distances), and their service summaries (maintenance.service_summaries, kept by triggers on
 * history: per template the number of services, the last one and the highest mileage) as one
 * JSON array per vehicle, joined from the tuples each summary stores already encoded
 * (summary_json), so upcoming work is one round trip whatever the history's length and
 * PostgreSQL builds no JSON per request.
 * Each per-vehicle part is a probe by key whatever the table statistics say: the summaries are a
 * scalar subquery (never flattened), and the odometer subquery keeps `offset 0` (flattened, the
 * view's vehicles could be hashed against ours, computing every vehicle's latest odometer).
 */
export function vehicleFactsQuery(knex: Knex, viewer: Viewer, filter: VehicleFilter, now: Date): Knex.Raw {
  return factsOf(knex, filteredVehicleIds(knex, viewer, filter), now);
}

/** The visible vehicles matching `filter`: a query selecting `id` (duplicates possible). */
export function filteredVehicleIds(knex: Knex, viewer: Viewer, filter: VehicleFilter): Knex.QueryBuilder {
  const ids = visibleVehicles(knex, viewer);
  // One array parameter, not `in (?, ?, ...)`: the text stays the same for any number of ids.
  if (filter.vehicleIds) ids.whereRaw(`v.vehicle_id = any(${arrayParameter('uuid')})`, [filter.vehicleIds]);
  if (filter.groupIds)
    ids.whereIn(
      'v.vehicle_id',
      knex('fleet_contract.group_vehicles_v1 as gv')
        .select('gv.vehicle_id')
        .join('fleet_contract.group_ancestors_v1 as ga', 'ga.descendant_id', 'gv.group_id')
        .whereRaw(`ga.ancestor_id = any(${arrayParameter('uuid')})`, [filter.groupIds]),
    );
  return ids;
}

/** The facts statement over `ids` (a query or raw selecting one `id` column, duplicates allowed). */
export function factsOf(knex: Knex, ids: Knex.QueryBuilder | Knex.Raw, now: Date): Knex.Raw {
  const days = recentDays(now);
  return knex.raw(
    `select v.id, v.organization_id as "organizationId", v.vehicle_type as "vehicleType",
            v.fuel_type as "fuelType", v.created_at as "createdAt",
            o.odometer_km as "odometerKm",
            coalesce((select sum(dd.distance_m) from fleet_contract.vehicle_daily_distance_v1 dd
                       where dd.vehicle_id = v.id and dd.day >= ?::date and dd.day < ?::date), 0
            )::float8 / 1000 as "recentKm",
            (select coalesce('[' || string_agg(s.summary_json, ',') || ']', '[]')
               from maintenance.service_summaries s where s.vehicle_id = v.id) as services
       from (select distinct x.id from (?) x) ids
       cross join lateral (
         select v.id, v.organization_id, v.vehicle_type, v.fuel_type, v.created_at
           from fleet_contract.vehicles_v1 v where v.id = ids.id) v
       left join lateral (
         select r.odometer_km from fleet_contract.vehicle_latest_odometer_v1 r
          where r.vehicle_id = v.id offset 0) o on true
      order by v.id`,
    [days.from, days.to, ids],
  );
}

/** Rows of a facts statement, with numbers and dates as the domain takes them. */
export function factsFromRows(rows: Array<VehicleFacts & { services: string }>): VehicleWithServices[] {
  return rows.map((r) => ({
    ...r,
    odometerKm: r.odometerKm === null ? null : Number(r.odometerKm),
    recentKm: Number(r.recentKm),
    services: (JSON.parse(r.services) as SummaryTuple[]).map(
      ([templateId, count, lastMileageKm, lastDoneAtMs, maxMileageKm]) => ({
        templateId,
        count,
        lastMileageKm,
        lastDoneAtMs,
        maxMileageKm,
      }),
    ),
  }));
}

/** The facts statement's answer (vehicleFactsQuery), with numbers and dates as the domain takes them. */
export async function vehicleFacts(
  knex: Knex,
  viewer: Viewer,
  filter: VehicleFilter,
  now: Date,
): Promise<VehicleWithServices[]> {
  const { rows } = await vehicleFactsQuery(knex, viewer, filter, now);
  return factsFromRows(rows);
}

/** Every template the viewer sees (the rules of upcoming work). One statement. */
export async function templateRules(knex: Knex, viewer: Viewer): Promise<TemplateRule[]> {
  return visibleTemplates(knex, viewer).select(selectAs(TEMPLATE_COLUMNS)).orderBy('t.id');
}
