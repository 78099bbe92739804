/**
 * Upcoming maintenance: the pure rules, with no database and no clock. What depends on the
 * vehicle's facts is computed when they change and kept (storedPartsOf, data/upcoming-store.ts);
 * what depends on the instant is computed when read (upcomingAt).
 *
 * For one vehicle and one template that applies to it (vehicle type and fuel type):
 *  - cycle: the number of services of that template recorded on that vehicle. The current cycle's
 *    base is the last such service (its mileage and date), else the vehicle's start: its
 *    `created_at` at 0 km (a vehicle with no record of a service is assumed never serviced, so a
 *    used vehicle registered at 150,000 km is overdue until its first service is recorded).
 *  - mileageDeadline = base mileage + intervalKm (null when the template has no distance interval).
 *  - dateDeadline = base date + intervalMonths months (clamped to the month's last day) +
 *    intervalDays days (null when the template has no time interval).
 *  - current mileage = the vehicle's latest odometer reading, raised to the highest mileage of any
 *    service recorded on the vehicle when that is higher (a service recorded above today's
 *    odometer means the odometer is stale: the service mileage is the floor, `odometerSource`
 *    says SERVICE_RECORD). No reading and no service: current mileage unknown (null).
 *  - remainingDistanceToDrive = mileageDeadline - current mileage (negative when overdue; null
 *    when either is unknown).
 *  - averageDailyKm = km driven in trips that ended in the AVERAGE_WINDOW_DAYS whole UTC days
 *    before today, divided by AVERAGE_WINDOW_DAYS (today's trips count from tomorrow on). An
 *    idle vehicle (0 km) has no distance-based estimate.
 *  - remainingDaysToDrive = the sooner of floor((dateDeadline - now) / 1 day) and
 *    floor(remainingDistanceToDrive / averageDailyKm); each side is left out when unknown; null
 *    when both are.
 *  - criticality: the threshold in force with the highest criticality that the item reaches:
 *    remainingDistanceToDrive <= threshold.remainingDistance, or remainingDaysToDrive <=
 *    threshold.remainingDuration (days). A threshold with neither bound matches every item (the
 *    base level, PLANNED by default). No threshold matched: null.
 */

export const AVERAGE_WINDOW_DAYS = 30;
export const DAY_MS = 86_400_000;

export interface TemplateRule {
  id: string;
  organizationId: string | null;
  description: string;
  system: string;
  fromExternalService: boolean;
  intervalKm: number | null;
  intervalMonths: number | null;
  intervalDays: number | null;
  /** vehicle types the template applies to; null = every type */
  vehicleTypes: string[] | null;
  /** fuel types the template applies to; null = every fuel type */
  fuelTypes: string[] | null;
}

export interface VehicleFacts {
  id: string;
  organizationId: string;
  vehicleType: string | null;
  fuelType: string | null;
  createdAt: Date;
  /** latest odometer reading (km), null when the vehicle never reported one */
  odometerKm: number | null;
  /** km driven in trips that ended in the AVERAGE_WINDOW_DAYS whole UTC days before today */
  recentKm: number;
}

export interface ServiceSummary {
  templateId: string;
  /** services of this template recorded on the vehicle */
  count: number;
  lastMileageKm: number;
  /** when the last one was done, epoch ms */
  lastDoneAtMs: number;
  /** highest mileage among them */
  maxMileageKm: number;
}

export interface Threshold {
  id: string;
  organizationId: string | null;
  code: string;
  criticality: number;
  remainingDistance: number | null;
  remainingDuration: number | null;
  description: string;
}

export type OdometerSource = 'READING' | 'SERVICE_RECORD';

/** What an upcoming item shows; `UpcomingWork` computes it. */
export interface UpcomingItem {
  id: string;
  vehicleId: string;
  template: TemplateRule;
  cycle: number;
  baseMileageKm: number;
  baseDate: Date;
  mileageDeadline: number | null;
  dateDeadline: Date | null;
  /** dateDeadline in epoch ms: what orders and pages compare */
  dateDeadlineMs: number | null;
  currentMileageKm: number | null;
  odometerSource: OdometerSource | null;
  /** km per day over the AVERAGE_WINDOW_DAYS whole days before today (0 for an idle vehicle) */
  averageDailyKm: number;
  remainingDistanceToDrive: number | null;
  remainingCalendarDays: number | null;
  remainingDaysByDistance: number | null;
  remainingDaysToDrive: number | null;
  criticality: Threshold | null;
}

/**
 * One computed item. A fleet's list computes every item to order them and shows a page, so what
 * only the page needs is made when read: the id (a base64url text) and the Date objects. The
 * numbers are plain fields (no per-item arrays or dates), which keeps a 60,000-item list young for
 * the garbage collector.
 */
class UpcomingWork implements UpcomingItem {
  private encodedId: string | undefined;
  constructor(
    readonly vehicleId: string,
    readonly template: TemplateRule,
    readonly cycle: number,
    readonly baseMileageKm: number,
    readonly baseDateMs: number,
    readonly mileageDeadline: number | null,
    readonly dateDeadlineMs: number | null,
    readonly currentMileageKm: number | null,
    readonly odometerSource: OdometerSource | null,
    readonly averageDailyKm: number,
    readonly remainingDistanceToDrive: number | null,
    readonly remainingCalendarDays: number | null,
    readonly remainingDaysByDistance: number | null,
    readonly remainingDaysToDrive: number | null,
    readonly criticality: Threshold | null,
  ) {}

  get id(): string {
    return (this.encodedId ??= encodeUpcomingId({
      vehicleId: this.vehicleId,
      templateId: this.template.id,
      cycle: this.cycle,
    }));
  }

  get baseDate(): Date {
    return new Date(this.baseDateMs);
  }

  get dateDeadline(): Date | null {
    return this.dateDeadlineMs === null ? null : new Date(this.dateDeadlineMs);
  }
}

/** Whether a template applies to a vehicle (its type and fuel type are listed, or the list is open). */
export function applies(template: TemplateRule, vehicle: VehicleFacts): boolean {
  if (template.organizationId !== null && template.organizationId !== vehicle.organizationId) return false;
  if (template.vehicleTypes && !template.vehicleTypes.includes(vehicle.vehicleType ?? '')) return false;
  if (template.fuelTypes && !template.fuelTypes.includes(vehicle.fuelType ?? '')) return false;
  return true;
}

/**
 * Epoch ms + months (the day of month clamped to the target month's length, as PostgreSQL does)
 * + days (24 h each), in UTC. Integer arithmetic on the proleptic Gregorian calendar, no Date
 * object: a fleet's list computes this for every item.
 */
export function addIntervalMs(ms: number, months: number | null, days: number | null): number {
  let result = ms;
  if (months) {
    const day = Math.floor(ms / DAY_MS);
    const { year, month, dayOfMonth } = civilFromDays(day);
    const target = year * 12 + (month - 1) + months;
    const targetYear = Math.floor(target / 12);
    const targetMonth = target - targetYear * 12 + 1;
    const clamped = Math.min(dayOfMonth, daysInMonth(targetYear, targetMonth));
    result = daysFromCivil(targetYear, targetMonth, clamped) * DAY_MS + (ms - day * DAY_MS);
  }
  if (days) result += days * DAY_MS;
  return result;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1]!);

/** Year, month (1-12) and day of month of a day number (days since 1970-01-01); H. Hinnant's algorithm. */
function civilFromDays(dayNumber: number): { year: number; month: number; dayOfMonth: number } {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    dayOfMonth: doy - Math.floor((153 * mp + 2) / 5) + 1,
  };
}

/** The day number (days since 1970-01-01) of a date; the inverse of civilFromDays. */
function daysFromCivil(year: number, month: number, dayOfMonth: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + dayOfMonth - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The vehicle's current mileage: latest reading, floored by the highest recorded service mileage. */
export function currentMileage(
  odometerKm: number | null,
  services: ServiceSummary[],
): { km: number | null; source: OdometerSource | null } {
  const serviceMax = services.reduce<number | null>(
    (max, s) => (max === null || s.maxMileageKm > max ? s.maxMileageKm : max),
    null,
  );
  if (odometerKm === null && serviceMax === null) return { km: null, source: null };
  if (odometerKm !== null && (serviceMax === null || odometerKm >= serviceMax))
    return { km: Math.round(odometerKm), source: 'READING' };
  return { km: serviceMax, source: 'SERVICE_RECORD' };
}

const ordered = new WeakMap<Threshold[], Threshold[]>();

/** Highest criticality first (then id), sorted once per list: a request passes one list for every item. */
function byCriticality(thresholds: Threshold[]): Threshold[] {
  let list = ordered.get(thresholds);
  if (!list) {
    list = [...thresholds].sort((a, b) => b.criticality - a.criticality || a.id.localeCompare(b.id));
    ordered.set(thresholds, list);
  }
  return list;
}

/** The threshold in force with the highest criticality that the item reaches (see the header). */
export function criticalityOf(
  thresholds: Threshold[],
  remainingKm: number | null,
  remainingDays: number | null,
): Threshold | null {
  for (const t of byCriticality(thresholds)) {
    if (t.remainingDistance === null && t.remainingDuration === null) return t;
    if (t.remainingDistance !== null && remainingKm !== null && remainingKm <= t.remainingDistance) return t;
    if (t.remainingDuration !== null && remainingDays !== null && remainingDays <= t.remainingDuration)
      return t;
  }
  return null;
}

/** One upcoming item: the current cycle of `template` on `vehicle`. */
export function computeUpcoming(
  vehicle: VehicleFacts,
  template: TemplateRule,
  services: ServiceSummary[],
  thresholds: Threshold[],
  now: Date,
): UpcomingItem {
  return upcomingOf(
    vehicle,
    template,
    services,
    currentMileage(vehicle.odometerKm, services),
    thresholds,
    now,
  );
}

function upcomingOf(
  vehicle: VehicleFacts,
  template: TemplateRule,
  services: ServiceSummary[],
  current: { km: number | null; source: OdometerSource | null },
  thresholds: Threshold[],
  now: Date,
): UpcomingWork {
  return upcomingAt(storedPartsOf(vehicle, template, services, current), template, thresholds, now);
}

/**
 * The parts of an item that do not depend on the instant it is read at: they follow the
 * vehicle's facts (odometer, 30-day km, service history, template). What maintenance keeps in
 * `upcoming_work` (data/upcoming-store.ts), so a read computes only upcomingAt.
 */
export interface StoredUpcoming {
  vehicleId: string;
  templateId: string;
  cycle: number;
  baseMileageKm: number;
  baseDateMs: number;
  mileageDeadline: number | null;
  dateDeadlineMs: number | null;
  currentMileageKm: number | null;
  odometerSource: OdometerSource | null;
  averageDailyKm: number;
  remainingDistanceToDrive: number | null;
  remainingDaysByDistance: number | null;
}

export function storedPartsOf(
  vehicle: VehicleFacts,
  template: TemplateRule,
  services: ServiceSummary[],
  current: { km: number | null; source: OdometerSource | null },
): StoredUpcoming {
  const own = services.find((s) => s.templateId === template.id);
  const cycle = own?.count ?? 0;
  const baseMileageKm = own?.lastMileageKm ?? 0;
  const baseDateMs = own ? own.lastDoneAtMs : vehicle.createdAt.getTime();
  const mileageDeadline = template.intervalKm !== null ? baseMileageKm + template.intervalKm : null;
  const dateDeadlineMs =
    template.intervalMonths !== null || template.intervalDays !== null
      ? addIntervalMs(baseDateMs, template.intervalMonths, template.intervalDays)
      : null;
  const remainingDistanceToDrive =
    mileageDeadline !== null && current.km !== null ? mileageDeadline - current.km : null;
  const averageDailyKm = vehicle.recentKm / AVERAGE_WINDOW_DAYS;
  const remainingDaysByDistance =
    remainingDistanceToDrive !== null && averageDailyKm > 0
      ? Math.floor(remainingDistanceToDrive / averageDailyKm)
      : null;
  return {
    vehicleId: vehicle.id,
    templateId: template.id,
    cycle,
    baseMileageKm,
    baseDateMs,
    mileageDeadline,
    dateDeadlineMs,
    currentMileageKm: current.km,
    odometerSource: current.source,
    averageDailyKm,
    remainingDistanceToDrive,
    remainingDaysByDistance,
  };
}

/** Calendar days from `nowMs` to a deadline (negative when passed): floor, as every reader computes it. */
export const calendarDays = (dateDeadlineMs: number, nowMs: number) =>
  Math.floor((dateDeadlineMs - nowMs) / DAY_MS);

/** An item read at `now`: the time-dependent parts (days left, criticality) of its stored parts. */
export function upcomingAt(
  s: StoredUpcoming,
  template: TemplateRule,
  thresholds: Threshold[],
  now: Date,
): UpcomingWork {
  const remainingCalendarDays =
    s.dateDeadlineMs !== null ? calendarDays(s.dateDeadlineMs, now.getTime()) : null;
  const remainingDaysToDrive =
    remainingCalendarDays === null
      ? s.remainingDaysByDistance
      : s.remainingDaysByDistance === null
        ? remainingCalendarDays
        : Math.min(remainingCalendarDays, s.remainingDaysByDistance);
  return new UpcomingWork(
    s.vehicleId,
    template,
    s.cycle,
    s.baseMileageKm,
    s.baseDateMs,
    s.mileageDeadline,
    s.dateDeadlineMs,
    s.currentMileageKm,
    s.odometerSource,
    s.averageDailyKm,
    s.remainingDistanceToDrive,
    remainingCalendarDays,
    s.remainingDaysByDistance,
    remainingDaysToDrive,
    criticalityOf(thresholds, s.remainingDistanceToDrive, remainingDaysToDrive),
  );
}

/**
 * Every upcoming item of a vehicle: one per applicable template (and, when given, per template
 * `wanted` keeps: a filter by system or template is applied before computing anything).
 */
export function upcomingForVehicle(
  vehicle: VehicleFacts,
  templates: TemplateRule[],
  services: ServiceSummary[],
  thresholds: Threshold[],
  now: Date,
  wanted?: (template: TemplateRule) => boolean,
): UpcomingItem[] {
  const current = currentMileage(vehicle.odometerKm, services);
  const items: UpcomingItem[] = [];
  for (const t of templates)
    if (applies(t, vehicle) && (!wanted || wanted(t)))
      items.push(upcomingOf(vehicle, t, services, current, thresholds, now));
  return items;
}

/** The stored parts of every item of a vehicle: one per template that applies to it. */
export function storedForVehicle(
  vehicle: VehicleFacts,
  templates: TemplateRule[],
  services: ServiceSummary[],
): StoredUpcoming[] {
  const current = currentMileage(vehicle.odometerKm, services);
  return templates
    .filter((t) => applies(t, vehicle))
    .map((t) => storedPartsOf(vehicle, t, services, current));
}

// ---- stable ids ----------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UpcomingKey {
  vehicleId: string;
  templateId: string;
  cycle: number;
}

/** `mu1:<vehicle>:<template>:<cycle>` in base64url: the same work gives the same id in every request. */
export function encodeUpcomingId(key: UpcomingKey): string {
  return Buffer.from(
    `mu1:${key.vehicleId.toLowerCase()}:${key.templateId.toLowerCase()}:${key.cycle}`,
    'utf8',
  ).toString('base64url');
}

/** The key an upcoming id names, or null when the text is not one of our ids. */
export function decodeUpcomingId(id: string): UpcomingKey | null {
  if (id.length > 200 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const parts = Buffer.from(id, 'base64url').toString('utf8').split(':');
  if (parts.length !== 4 || parts[0] !== 'mu1') return null;
  const [, vehicleId, templateId, cycleText] = parts as [string, string, string, string];
  if (!UUID.test(vehicleId) || !UUID.test(templateId) || !/^\d{1,6}$/.test(cycleText)) return null;
  return { vehicleId, templateId, cycle: Number(cycleText) };
}
