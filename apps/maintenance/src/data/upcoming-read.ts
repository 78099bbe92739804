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
import type { Viewer } from '@fleetgraph/auth';
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

const COLUMNS = `w.vehicle_id as "vehicleId", w.template_id as "templateId", w.cycle as "cycle",
  w.base_mileage_km::float8 as "baseMileageKm", w.base_date_ms::float8 as "baseDateMs",
  w.mileage_deadline::float8 as "mileageDeadline", w.date_deadline_ms::float8 as "dateDeadlineMs",
  w.current_mileage_km::float8 as "currentMileageKm", w.odometer_source as "odometerSource",
  w.average_daily_km as "averageDailyKm", w.remaining_km::float8 as "remainingDistanceToDrive",
  w.days_by_distance::float8 as "remainingDaysByDistance"`;

/** The kept columns' names as COLUMNS gives them (what a CTE of COLUMNS is read back with). */
const COLUMN_NAMES = [...COLUMNS.matchAll(/as "?(\w+)"?/g)].map((m) => `"${m[1]}"`).join(', ');
/**
 * tieRows: a calendar day of more items than this at the page's level is read in (km, id) order
 * (tests lower it to take that path on a small fleet).
 */
export const walkSettings = { tieRows: 500 };

export interface ReadScope {
  knex: Knex;
  viewer: Viewer;
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
  // Each vehicle's rows are a probe of the primary key (`offset 0` keeps the lateral a per-vehicle
  // subplan: flattened, without statistics the planner may hash every kept row against the ids).
  const { rows } = await knex.raw(
    `select w.* from (select distinct x.id from (?) x) ids
      cross join lateral (
        select ${COLUMNS} from maintenance.upcoming_work w
         where w.vehicle_id = ids.id
           and (${arrayParameter('uuid')} is null or w.template_id = any(${arrayParameter('uuid')}))
        offset 0) w`,
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
  const levels: Array<{ level: number; aboveDays: number | null; aboveKm: number | null }> = [];
  let aboveDays: number | null = null;
  let aboveKm: number | null = null;
  let open = true;
  for (const t of byCriticality(thresholds)) {
    levels.push({ level: t.criticality, aboveDays, aboveKm });
    if (t.remainingDistance === null && t.remainingDuration === null) {
      open = false;
      break;
    }
    if (t.remainingDuration !== null) aboveDays = Math.max(aboveDays ?? -Infinity, t.remainingDuration);
    if (t.remainingDistance !== null) aboveKm = Math.max(aboveKm ?? -Infinity, t.remainingDistance);
  }
  if (open) levels.push({ level: 0, aboveDays, aboveKm });
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
  const ctes: Sql[] = [];
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
    const higher: string[] = [];
    for (const { level, aboveDays, aboveKm } of levelsOf(scope.thresholds, min)) {
      if (cursorLevel !== null && level > cursorLevel) continue;
      const atCursor = cursorLevel === level;
      // Days left of every item of the level: above the more critical thresholds', at or after the cursor's.
      let lowDays = aboveDays === null ? null : aboveDays + 1;
      if (atCursor && Number(req.after![1]) < LAST)
        lowDays = Math.max(lowDays ?? -Infinity, Number(req.after![1]));
      const gate = higher.map((f) => ` and (select count(*) from ${f}) < ${Number(k)}`).join('');
      const filter = (s: Sql) => {
        // A level is read only when the more urgent ones do not fill the page.
        s.add(gate);
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
      // The calendar side: the first k by date deadline (`first`); then the k-th one's calendar
      // day (`day`: null when the first k are all there is, or end with undated rows), whose items
      // at that day's value follow (km, id): all of them when the day holds fewer than TIE_ROWS
      // (`tie`), else the first k by (km, id) (`tieByKm`, run only then).
      const first = `f${ctes.length}`;
      const day = `d${ctes.length}`;
      const tie = `t${ctes.length}`;
      const firstSql = new Sql().add(
        `${first} as materialized (select ${COLUMNS}, w.dd_key from maintenance.upcoming_work w where `,
      );
      common(firstSql, scope, req.organizationId);
      filter(firstSql);
      if (lowDate !== null) firstSql.add(' and w.dd_key >= ?::int8', lowDate);
      firstSql.add(' order by w.dd_key, w.uid limit ?)', k);
      ctes.push(firstSql);
      higher.push(first);
      ctes.push(
        new Sql().add(
          `${day} as materialized (select case when count(*) < ? or max(dd_key) >= ${LAST} then null
             else floor((max(dd_key) - ?::int8)::float8 / ${DAY_MS})::int8 end as c from ${first})`,
          k,
          nowMs,
        ),
      );
      const dayRange = (s: Sql) =>
        s.add(
          ` and w.dd_key >= greatest(?::int8, ?::int8 + (select c from ${day}) * ${DAY_MS})` +
            ` and w.dd_key < ?::int8 + ((select c from ${day}) + 1) * ${DAY_MS}`,
          lowDate ?? -LAST,
          nowMs,
          nowMs,
        );
      const tieSql = new Sql().add(
        `${tie} as materialized (select ${COLUMNS} from maintenance.upcoming_work w where `,
      );
      common(tieSql, scope, req.organizationId);
      filter(tieSql);
      dayRange(tieSql).add(` order by w.dd_key, w.uid limit ${Number(walkSettings.tieRows)})`);
      ctes.push(tieSql);
      parts.push(new Sql().add(`(select ${COLUMN_NAMES} from ${first})`));
      parts.push(new Sql().add(`(select ${COLUMN_NAMES} from ${tie})`));
      // km left of every item of the level: above the more critical thresholds' (unknown is LAST)
      const kmFloor = (s: Sql) => (aboveKm === null ? s : s.add(' and w.km_key > ?::int8', aboveKm));
      const tieByKm = part();
      filter(tieByKm);
      kmFloor(tieByKm);
      dayRange(tieByKm)
        .add(
          ` and w.dist_days_key >= (select c from ${day}) and (select count(*) from ${tie}) >= ${Number(walkSettings.tieRows)}`,
        )
        .add(' order by w.km_key, w.uid limit ?)', k);
      // the distance side: the first k by (days by distance, km, id)
      const distance = part();
      filter(distance);
      if (lowDays !== null) distance.add(' and w.dist_days_key >= ?::int8', lowDays);
      // k items have days left of at most the calendar side's k-th: none past it is on the page
      distance.add(` and w.dist_days_key <= coalesce((select c from ${day}), ${LAST}::int8)`);
      distance.add(' order by w.dist_days_key, w.km_key, w.uid limit ?)', k);
      // neither estimate: ordered by (km, id)
      const undated = part();
      filter(undated);
      kmFloor(undated);
      // items without days left come after every item with some: only when the calendar side is short
      undated.add(
        ` and w.date_deadline_ms is null and w.days_by_distance is null and (select c from ${day}) is null`,
      );
      undated.add(' order by w.km_key, w.uid limit ?)', k);
    }
  }
  if (parts.length === 0) return [];
  const all = new Sql();
  if (ctes.length > 0) all.add('with ');
  ctes.forEach((c, i) => all.add(i ? ', ' : '').add(c.text, ...c.bindings));
  parts.forEach((p, i) => all.add(i ? ' union all ' : ' ').add(p.text, ...p.bindings));
  // Without statistics the planner expects few rows to pass a walk's filters, and would read
  // every row of the organization in a bitmap and sort them; each walk must follow its index and
  // stop after its page.
  const rows = await scope.knex.transaction(async (trx) => {
    await trx.raw('set local enable_bitmapscan = off; set local enable_sort = off');
    const result = await trx.raw(all.text, all.bindings as Knex.RawBinding[]);
    return result.rows as StoredUpcoming[];
  });
  const unique = new Map<string, StoredUpcoming>();
  for (const r of rows) unique.set(`${r.vehicleId}:${r.templateId}`, r);
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
