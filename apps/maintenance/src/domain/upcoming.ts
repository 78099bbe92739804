/**
 * Upcoming maintenance, computed (never stored): the pure rules, with no database and no clock.
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
 *  - averageDailyKm = km driven in trips that ended in the AVERAGE_WINDOW_DAYS days before now,
 *    divided by AVERAGE_WINDOW_DAYS. An idle vehicle (0 km) has no distance-based estimate.
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
  /** km driven in trips that ended in the last AVERAGE_WINDOW_DAYS days */
  recentKm: number;
}

export interface ServiceSummary {
  templateId: string;
  /** services of this template recorded on the vehicle */
  count: number;
  lastMileageKm: number;
  lastDoneAt: Date;
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

export interface UpcomingItem {
  id: string;
  vehicleId: string;
  template: TemplateRule;
  cycle: number;
  baseMileageKm: number;
  baseDate: Date;
  mileageDeadline: number | null;
  dateDeadline: Date | null;
  currentMileageKm: number | null;
  odometerSource: OdometerSource | null;
  /** km per day over the last AVERAGE_WINDOW_DAYS days (0 for an idle vehicle) */
  averageDailyKm: number;
  remainingDistanceToDrive: number | null;
  remainingCalendarDays: number | null;
  remainingDaysByDistance: number | null;
  remainingDaysToDrive: number | null;
  criticality: Threshold | null;
}

/** Whether a template applies to a vehicle (its type and fuel type are listed, or the list is open). */
export function applies(template: TemplateRule, vehicle: VehicleFacts): boolean {
  if (template.organizationId !== null && template.organizationId !== vehicle.organizationId) return false;
  if (template.vehicleTypes && !template.vehicleTypes.includes(vehicle.vehicleType ?? '')) return false;
  if (template.fuelTypes && !template.fuelTypes.includes(vehicle.fuelType ?? '')) return false;
  return true;
}

/** date + months (clamped to the last day of the target month, as PostgreSQL does) + days, in UTC. */
export function addInterval(date: Date, months: number | null, days: number | null): Date {
  let result = date;
  if (months) {
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    result = new Date(
      Date.UTC(
        y,
        m,
        Math.min(date.getUTCDate(), lastDay),
        date.getUTCHours(),
        date.getUTCMinutes(),
        date.getUTCSeconds(),
        date.getUTCMilliseconds(),
      ),
    );
  }
  if (days) result = new Date(result.getTime() + days * DAY_MS);
  return result;
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
  const own = services.find((s) => s.templateId === template.id);
  const cycle = own?.count ?? 0;
  const baseMileageKm = own?.lastMileageKm ?? 0;
  const baseDate = own?.lastDoneAt ?? vehicle.createdAt;
  const mileageDeadline = template.intervalKm !== null ? baseMileageKm + template.intervalKm : null;
  const dateDeadline =
    template.intervalMonths !== null || template.intervalDays !== null
      ? addInterval(baseDate, template.intervalMonths, template.intervalDays)
      : null;
  const current = currentMileage(vehicle.odometerKm, services);
  const remainingDistanceToDrive =
    mileageDeadline !== null && current.km !== null ? mileageDeadline - current.km : null;
  const averageDailyKm = vehicle.recentKm / AVERAGE_WINDOW_DAYS;
  const remainingCalendarDays =
    dateDeadline !== null ? Math.floor((dateDeadline.getTime() - now.getTime()) / DAY_MS) : null;
  const remainingDaysByDistance =
    remainingDistanceToDrive !== null && averageDailyKm > 0
      ? Math.floor(remainingDistanceToDrive / averageDailyKm)
      : null;
  const candidates = [remainingCalendarDays, remainingDaysByDistance].filter((d): d is number => d !== null);
  const remainingDaysToDrive = candidates.length > 0 ? Math.min(...candidates) : null;
  return {
    id: encodeUpcomingId({ vehicleId: vehicle.id, templateId: template.id, cycle }),
    vehicleId: vehicle.id,
    template,
    cycle,
    baseMileageKm,
    baseDate,
    mileageDeadline,
    dateDeadline,
    currentMileageKm: current.km,
    odometerSource: current.source,
    averageDailyKm,
    remainingDistanceToDrive,
    remainingCalendarDays,
    remainingDaysByDistance,
    remainingDaysToDrive,
    criticality: criticalityOf(thresholds, remainingDistanceToDrive, remainingDaysToDrive),
  };
}

/** Every upcoming item of a vehicle: one per applicable template. */
export function upcomingForVehicle(
  vehicle: VehicleFacts,
  templates: TemplateRule[],
  services: ServiceSummary[],
  thresholds: Threshold[],
  now: Date,
): UpcomingItem[] {
  return templates
    .filter((t) => applies(t, vehicle))
    .map((t) => computeUpcoming(vehicle, t, services, thresholds, now));
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
