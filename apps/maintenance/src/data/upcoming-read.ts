/**
 * Reads of the kept upcoming work (data/upcoming-store.ts): the stored rows are turned into items
 * at the request's instant (domain/upcoming.ts upcomingAt), so every answer is the one computing
 * from the facts would give.
 *
 * Two shapes, as for every root list (libs/visibility rootListScope):
 * - `set` (a vehicle or group filter, or an account seeing a subtree): the rows of the visible,
 *   filtered vehicles, computed and paged in memory (data/upcoming-page.ts). Bounded by what the
 *   filter or the account sees.
 * - `walk` (a top-level account of a large fleet, no vehicle filter): index walks in the page's
 *   order over the organization's rows, each row tested for visibility, reading about a page of
 *   rows per criticality level. URGENCY orders by (criticality desc, days left, km left, id), days
 *   left = min(calendar days to the date deadline, days the km left last). Criticality and the
 *   calendar days follow the clock, so no stored order is URGENCY's; but within one level the
 *   first k items by days left are among the first k by date deadline (with the rows of the k-th
 *   one's calendar day) and the first k by (days by distance, km, id), and the items with neither
 *   estimate are ordered by (km, id): three bounded walks per level whose union holds the page.
 *   DATE_DEADLINE and REMAINING_DISTANCE are stored orders: one walk.
 */
import type { Knex } from 'knex';
import { arrayParameter } from '@fleetgraph/db';
import { vehicleVisibleTo } from '@fleetgraph/visibility';
import {
  DAY_MS,
  upcomingAt,
  type StoredUpcoming,
  type TemplateRule,
  type Threshold,
  type UpcomingItem,
} from '../domain/upcoming';
import { LAST } from './upcoming-store';
import { filteredVehicleIds, type VehicleFilter } from './tables';
import type { UpcomingSort } from './upcoming-page';

const COLUMNS = `w.vehicle_id as "vehicleId", w.template_id as "templateId", w.cycle,
  w.base_mileage_km::float8 as "baseMileageKm", w.base_date_ms::float8 as "baseDateMs",
  w.mileage_deadline::float8 as "mileageDeadline", w.date_deadline_ms::float8 as "dateDeadlineMs",
  w.current_mileage_km::float8 as "currentMileageKm", w.odometer_source as "odometerSource",
  w.average_daily_km as "averageDailyKm", w.remaining_km::float8 as "remainingDistanceToDrive",
  w.days_by_distance::float8 as "remainingDaysByDistance"`;

export interface ReadScope {
  knex: Knex;
  viewer: string;
  now: Date;
  templates: TemplateRule[];
  thresholds: Threshold[];
  /** templates a system or template filter keeps (null: all) */
  templateIds: string[] | null;
}

/** Items of stored rows, at `now`; rows of a template the viewer does not see are left out. */
export function itemsOf(rows: StoredUpcoming[], scope: ReadScope): UpcomingItem[] {
  const byId = new Map(scope.templates.map((t) => [t.id, t]));
  const items: UpcomingItem[] = [];
  for (const row of rows) {
    const template = byId.get(row.templateId);
    if (template) items.push(upcomingAt(row, template, scope.thresholds, scope.now));
  }
  return items;
}

/** `set` shape: every kept item of the visible vehicles matching `filter`. One statement. */
export async function storedItemsOf(scope: ReadScope, filter: VehicleFilter): Promise<UpcomingItem[]> {
  const { knex } = scope;
  const ids = filteredVehicleIds(knex, scope.viewer, filter);
  const { rows } = await knex.raw(
    `select ${COLUMNS} from maintenance.upcoming_work w
      where w.vehicle_id in (select distinct x.id from (?) x)
        and (${arrayParameter('uuid')} is null or w.template_id = any(${arrayParameter('uuid')}))`,
    [ids, scope.templateIds, scope.templateIds],
  );
  return itemsOf(rows, scope);
}

/** SQL with positional bindings, assembled from parts. */
class Sql {
  text = '';
  bindings: unknown[] = [];
  add(text: string, ...bindings: unknown[]): this {
    this.text += text;
    this.bindings.push(...bindings);
    return this;
  }
  raw(raw: Knex.Raw): this {
    const { sql, bindings } = raw.toSQL();
    return this.add(sql, ...bindings);
  }
}

/** Ordered thresholds: highest criticality first (as criticalityOf reads them). */
const byCriticality = (thresholds: Threshold[]) =>
  [...thresholds].sort((a, b) => b.criticality - a.criticality || a.id.localeCompare(b.id));

/**
 * The levels a list can hold, most urgent first, each with the bounds every item of the level is
 * above (the days and km of the more critical thresholds it does not reach). A level below an
 * unbounded threshold is empty; 0 is "no threshold reached".
 */
function levelsOf(thresholds: Threshold[], minCriticality: number | null) {
  const levels: Array<{ level: number; aboveDays: number | null }> = [];
  let aboveDays: number | null = null;
  let open = true;
  for (const t of byCriticality(thresholds)) {
    levels.push({ level: t.criticality, aboveDays });
    if (t.remainingDistance === null && t.remainingDuration === null) {
      open = false;
      break;
    }
    if (t.remainingDuration !== null) aboveDays = Math.max(aboveDays ?? -Infinity, t.remainingDuration);
  }
  if (open) levels.push({ level: 0, aboveDays });
  return levels.filter((l) => minCriticality == null || l.level >= minCriticality);
}

/** The row's days left at now_ms (bound as the first parameter of each use): null when unknown. */
const DAYS = `least(floor((w.date_deadline_ms - ?::int8)::float8 / ${DAY_MS})::int8, w.days_by_distance)`;

/** The row's level at now (criticalityOf in SQL), as a CASE over the thresholds in force. */
function levelSql(sql: Sql, thresholds: Threshold[], nowMs: number): Sql {
  sql.add('(case');
  for (const t of byCriticality(thresholds)) {
    const parts: Array<[string, unknown[]]> = [];
    if (t.remainingDistance === null && t.remainingDuration === null) parts.push(['true', []]);
    if (t.remainingDistance !== null) parts.push(['w.remaining_km <= ?', [t.remainingDistance]]);
    if (t.remainingDuration !== null) parts.push([`${DAYS} <= ?`, [nowMs, t.remainingDuration]]);
    sql.add(' when ');
    parts.forEach(([text, b], i) => sql.add(i ? ` or ${text}` : text, ...b));
    sql.add(` then ${Number(t.criticality)}`);
  }
  return sql.add(' else 0 end)');
}

export interface WalkRequest {
  organizationId: string;
  sort: UpcomingSort;
  /** the cursor's key (sortKey of the last item of the previous page), or null */
  after: unknown[] | null;
  /** rows wanted past the cursor (page size + 1) */
  limit: number;
  minCriticality: number | null;
}

/** The common filter of every walk: organization, template filter, visibility of the vehicle. */
function common(sql: Sql, scope: ReadScope, organizationId: string): Sql {
  sql.add('w.organization_id = ?', organizationId);
  if (scope.templateIds) sql.add(` and w.template_id = any(${arrayParameter('uuid')})`, scope.templateIds);
  return sql.add(' and ').raw(vehicleVisibleTo(scope.knex, scope.viewer, 'w.vehicle_id'));
}

/** `walk` shape: candidate rows holding the page after the cursor (see the header). One statement. */
export async function walkCandidates(scope: ReadScope, req: WalkRequest): Promise<UpcomingItem[]> {
  const nowMs = scope.now.getTime();
  const k = req.limit;
  const min = req.minCriticality;
  const levelFilter = (s: Sql, op: string, level: number) => {
    s.add(' and ');
    levelSql(s, scope.thresholds, nowMs);
    return s.add(` ${op} ${Number(level)}`);
  };
  const parts: Sql[] = [];
  const part = () => {
    const s = new Sql().add(`(select ${COLUMNS} from maintenance.upcoming_work w where `);
    parts.push(s);
    return common(s, scope, req.organizationId);
  };
  if (req.sort !== 'URGENCY') {
    const column = req.sort === 'DATE_DEADLINE' ? 'w.dd_key' : 'w.km_key';
    const s = part();
    if (min != null) levelFilter(s, '>=', min);
    if (req.after) s.add(` and (${column}, w.uid) > (?::int8, ? collate "C")`, req.after[0], req.after[1]);
    s.add(` order by ${column}, w.uid limit ?)`, k);
  } else {
    const cursorLevel = req.after ? -Number(req.after[0]) : null;
    for (const { level, aboveDays } of levelsOf(scope.thresholds, min)) {
      if (cursorLevel !== null && level > cursorLevel) continue;
      const atCursor = cursorLevel === level;
      // Days left of every item of the level: above the more critical thresholds', at or after the cursor's.
      let lowDays = aboveDays === null ? null : aboveDays + 1;
      if (atCursor && Number(req.after![1]) < LAST)
        lowDays = Math.max(lowDays ?? -Infinity, Number(req.after![1]));
      const filter = (s: Sql) => {
        levelFilter(s, '=', level);
        if (atCursor)
          s.add(
            ` and (coalesce(${DAYS}, ${LAST}::int8), w.km_key, w.uid) > (?::int8, ?::int8, ? collate "C")`,
            nowMs,
            req.after![1],
            req.after![2],
            req.after![3],
          );
        return s;
      };
      const lowDate = lowDays === null ? null : nowMs + lowDays * DAY_MS;
      // the calendar side: the first k by date deadline, then the rest of the k-th one's calendar day
      const first = new Sql().add(`select w.dd_key from maintenance.upcoming_work w where `);
      common(first, scope, req.organizationId);
      filter(first);
      if (lowDate !== null) first.add(' and w.dd_key >= ?::int8', lowDate);
      first.add(' order by w.dd_key, w.uid limit ?', k);
      const calendar = part();
      filter(calendar);
      calendar
        .add(
          ` and w.dd_key >= coalesce(?::int8, -${LAST}::int8) and w.dd_key < (select case when count(*) < ?`,
          lowDate,
          k,
        )
        .add(` then ${LAST}::int8 + 1 when max(f.dd_key) >= ${LAST} then ${LAST}::int8`)
        .add(
          ` else ?::int8 + (floor((max(f.dd_key) - ?::int8)::float8 / ${DAY_MS})::int8 + 1) * ${DAY_MS} end`,
          nowMs,
          nowMs,
        )
        .add(' from (')
        .add(first.text, ...first.bindings)
        .add(') f))');
      // the distance side: the first k by (days by distance, km, id)
      const distance = part();
      filter(distance);
      if (lowDays !== null) distance.add(' and w.dist_days_key >= ?::int8', lowDays);
      distance.add(' order by w.dist_days_key, w.km_key, w.uid limit ?)', k);
      // neither estimate: ordered by (km, id)
      const undated = part();
      filter(undated);
      undated.add(' and w.date_deadline_ms is null and w.days_by_distance is null');
      undated.add(' order by w.km_key, w.uid limit ?)', k);
    }
  }
  if (parts.length === 0) return [];
  const all = new Sql();
  parts.forEach((p, i) => all.add(i ? ' union all ' : '').add(p.text, ...p.bindings));
  const { rows } = await scope.knex.raw(all.text, all.bindings as Knex.RawBinding[]);
  const unique = new Map<string, StoredUpcoming>();
  for (const r of rows as StoredUpcoming[]) unique.set(`${r.vehicleId}:${r.templateId}`, r);
  return itemsOf([...unique.values()], scope);
}

/** `walk` shape's count: every kept item of the organization the viewer sees, filtered. */
export async function walkCount(scope: ReadScope, req: WalkRequest): Promise<number> {
  const sql = new Sql().add('select count(*)::int as n from maintenance.upcoming_work w where ');
  sql.add('w.organization_id = ?', req.organizationId);
  if (scope.templateIds) sql.add(` and w.template_id = any(${arrayParameter('uuid')})`, scope.templateIds);
  const ids = filteredVehicleIds(scope.knex, scope.viewer, {});
  sql
    .add(' and w.vehicle_id in (')
    .raw(ids as unknown as Knex.Raw)
    .add(')');
  if (req.minCriticality != null) {
    sql.add(' and ');
    levelSql(sql, scope.thresholds, scope.now.getTime()).add(' >= ?', req.minCriticality);
  }
  const { rows } = await scope.knex.raw(sql.text, sql.bindings as Knex.RawBinding[]);
  return rows[0].n;
}
