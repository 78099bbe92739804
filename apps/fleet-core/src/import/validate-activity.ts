/**
 * Value rules and references of what trips and devices record (schema: dataset-activity.ts),
 * of an account's alert preference, of the vehicle details, and of the global metric and
 * log-fetch catalogs. Called by validate.ts, which owns the reference resolvers.
 *
 * Like validate.ts, it walks the raw input defensively: a value that does not have the right
 * shape is left to the zod schema (which reports it) and only skips the rules that need it, so
 * every other problem is still listed. Each problem names its JSON path.
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import { DEVICE_HISTORY_EVENTS } from './dataset-activity';

type Loose = Record<string, unknown>;
type Problem = (path: string, message: string) => void;
const obj = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const items = (v: unknown): Loose[] => list(v).map(obj);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const ISO = z.iso.datetime({ offset: true });
/** Epoch ms of a valid ISO 8601 timestamp, else NaN (the schema reports the bad value). */
const time = (v: unknown): number => (ISO.safeParse(v).success ? Date.parse(v as string) : NaN);
const known = (...values: number[]) => values.every((v) => !Number.isNaN(v));
const q = (s: string) => JSON.stringify(s);
const seconds = (ms: number) => Math.round(ms / 1000);
/** "a COMPLETED", "an IN_PROGRESS". */
const article = (word: string) => `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;

/** What the checks of one organization need from validate.ts. */
export interface ActivityContext {
  problem: Problem;
  /** The account's id, or undefined after reporting the problem at path. */
  resolveAccount(ref: string, path: string): string | undefined;
  /** The vehicle's index, or undefined after reporting the problem at path. */
  resolveVehicle(ref: string, path: string): number | undefined;
  /** A log-fetch action id of the file's catalog or of the database. */
  hasLogfetchAction(id: string): boolean;
  /** The ids of the file's and the database's log-fetch actions, for messages. */
  logfetchActionIds(): string[];
}

/** Reports every repeated key (case-sensitive) with the path of its first occurrence. */
function duplicates(
  entries: Array<{ key: string | undefined; path: string }>,
  problem: Problem,
  what: (key: string) => string,
) {
  const first = new Map<string, string>();
  for (const { key, path } of entries) {
    if (key === undefined) continue;
    const earlier = first.get(key);
    if (earlier) problem(path, `duplicate ${what(key)} (also at ${earlier})`);
    else first.set(key, path);
  }
}

/** Periods of one device (privacy levels, modes): end after start, one open, no overlap. */
function checkPeriods(periods: Loose[], base: string, what: string, problem: Problem) {
  const spans: Array<{ start: number; end: number; path: string }> = [];
  let open: string | undefined;
  periods.forEach((p, k) => {
    const path = `${base}[${k}]`;
    const start = time(p.startedAt);
    const isOpen = p.endedAt === undefined || p.endedAt === null;
    const end = isOpen ? Infinity : time(p.endedAt);
    if (isOpen) {
      if (open) {
        // Reported once: a second open period also overlaps the first one.
        problem(path, `a device has at most one open ${what} (without endedAt); also at ${open}`);
        return;
      }
      open = path;
    }
    if (!known(start, end)) return;
    if (end <= start) {
      problem(`${path}.endedAt`, `endedAt must be after startedAt (${String(p.startedAt)})`);
      return;
    }
    spans.push({ start, end, path });
  });
  spans.sort((a, b) => a.start - b.start);
  for (let k = 1; k < spans.length; k++) {
    const previous = spans.slice(0, k).find((s) => s.end > spans[k]!.start);
    if (previous) problem(spans[k]!.path, `overlaps ${previous.path} (one ${what} at a time)`);
  }
}

// --- Accounts ---------------------------------------------------------------------------------

export function checkAccountActivity(account: Loose, path: string, { problem }: ActivityContext): void {
  if (account.alertPreference === undefined) return;
  const p = `${path}.alertPreference`;
  const preference = obj(account.alertPreference);
  const start = str(preference.quietHoursStart);
  const end = str(preference.quietHoursEnd);
  if ((start === undefined) !== (end === undefined))
    problem(
      `${p}.${start === undefined ? 'quietHoursStart' : 'quietHoursEnd'}`,
      'quietHoursStart and quietHoursEnd go together: give both or neither',
    );
  else if (start !== undefined && start === end)
    problem(`${p}.quietHoursEnd`, `quiet hours cannot start and end at the same time (${start})`);
  const channels = list(preference.channels);
  duplicates(
    channels.map((c, k) => ({ key: str(c), path: `${p}.channels[${k}]` })),
    problem,
    (c) => `channel ${q(c)}`,
  );
  channels.forEach((c, k) => {
    if (c === 'SMS' && !str(account.phone))
      problem(`${p}.channels[${k}]`, "the SMS channel needs the account's phone");
  });
  duplicates(
    list(preference.mutedTypes).map((t, k) => ({ key: str(t), path: `${p}.mutedTypes[${k}]` })),
    problem,
    (t) => `muted type ${q(t)}`,
  );
}

// --- Vehicles ---------------------------------------------------------------------------------

const NO_TRACTION_BATTERY = new Set(['GASOLINE', 'DIESEL', 'LPG', 'CNG']);

export function checkVehicleDetails(vehicle: Loose, path: string, { problem }: ActivityContext): void {
  const fuel = str(vehicle.fuelType) ?? 'OTHER';
  if (fuel === 'ELECTRIC' && vehicle.fuelTankCapacityLiters !== undefined)
    problem(`${path}.fuelTankCapacityLiters`, 'an ELECTRIC vehicle has no fuel tank');
  if (NO_TRACTION_BATTERY.has(fuel) && vehicle.batteryCapacityKwh !== undefined)
    problem(`${path}.batteryCapacityKwh`, `a ${fuel} vehicle has no traction battery`);
  if (vehicle.odometerUpdatedAt !== undefined && vehicle.odometerKm === undefined)
    problem(`${path}.odometerUpdatedAt`, 'odometerUpdatedAt needs odometerKm');
}

// --- Trips ------------------------------------------------------------------------------------

export function checkTripActivity(trip: Loose, path: string, { problem }: ActivityContext): void {
  const start = time(trip.startedAt);
  const end = time(trip.endedAt);
  const inTrip = known(start, end) && end >= start;
  const span = `its trip (${String(trip.startedAt)} to ${String(trip.endedAt)})`;
  const tripMax = num(trip.maxSpeedKmh);
  const tripDistance = num(trip.distanceKm);

  items(trip.harshes).forEach((h, k) => {
    const p = `${path}.harshes[${k}]`;
    const at = time(h.occurredAt);
    if (inTrip && known(at) && (at < start || at > end))
      problem(`${p}.occurredAt`, `${String(h.occurredAt)} is outside ${span}`);
    const speed = num(h.speedKmh);
    if (speed !== undefined && tripMax !== undefined && speed > tripMax + 0.5)
      problem(`${p}.speedKmh`, `speedKmh ${speed} is above the trip's maxSpeedKmh ${tripMax}`);
  });

  const overspeeds: Array<{ start: number; end: number; path: string }> = [];
  items(trip.overspeeds).forEach((o, k) => {
    const p = `${path}.overspeeds[${k}]`;
    const from = time(o.startedAt);
    const to = time(o.endedAt);
    if (known(from, to) && to <= from) {
      problem(`${p}.endedAt`, `an overspeed must end after it starts (${String(o.startedAt)})`);
    } else if (known(from, to)) {
      overspeeds.push({ start: from, end: to, path: p });
      if (inTrip && (from < start || from > end))
        problem(`${p}.startedAt`, `${String(o.startedAt)} is outside ${span}`);
      if (inTrip && (to < start || to > end))
        problem(`${p}.endedAt`, `${String(o.endedAt)} is outside ${span}`);
    }
    const max = num(o.maxSpeedKmh);
    const limit = num(o.speedLimitKmh);
    if (max !== undefined && limit !== undefined && max <= limit)
      problem(`${p}.maxSpeedKmh`, `maxSpeedKmh ${max} must be above speedLimitKmh ${limit}`);
    if (max !== undefined && tripMax !== undefined && max > tripMax + 0.5)
      problem(`${p}.maxSpeedKmh`, `maxSpeedKmh ${max} is above the trip's maxSpeedKmh ${tripMax}`);
    const distance = num(o.distanceKm);
    if (distance !== undefined && tripDistance !== undefined && distance > tripDistance + 0.001)
      problem(`${p}.distanceKm`, `distanceKm ${distance} is more than the trip's distanceKm ${tripDistance}`);
    if (distance !== undefined && max !== undefined && known(from, to) && to > from) {
      const average = distance / ((to - from) / 3_600_000);
      if (average > max + 0.5)
        problem(
          `${p}.distanceKm`,
          `${distance} km in ${seconds(to - from)} s is an average of ${average.toFixed(1)} km/h, above its maxSpeedKmh ${max}`,
        );
    }
  });
  overspeeds.sort((a, b) => a.start - b.start);
  for (let k = 1; k < overspeeds.length; k++) {
    if (overspeeds[k]!.start < overspeeds[k - 1]!.end)
      problem(overspeeds[k]!.path, `overlaps ${overspeeds[k - 1]!.path} (one overspeed at a time)`);
  }

  const metadata = items(trip.metadata);
  duplicates(
    metadata.map((m, k) => ({ key: str(m.key), path: `${path}.metadata[${k}].key` })),
    problem,
    (key) => `metadata key ${q(key)} in this trip`,
  );
  metadata.forEach((m, k) => {
    const created = time(m.createdAt);
    const updated = time(m.updatedAt);
    if (known(created, updated) && updated < created)
      problem(`${path}.metadata[${k}].updatedAt`, `updatedAt is before createdAt (${String(m.createdAt)})`);
  });
}

// --- Devices ----------------------------------------------------------------------------------

const VEHICLE_EVENTS = new Set<string>(['INSTALLED', 'REMOVED']);
const NOT_DONE = new Set(['REQUESTED', 'IN_PROGRESS']);
const LPA_DOWNLOADS = new Set(['DOWNLOAD_AND_ENABLE_PROFILE', 'DOWNLOAD_PROFILE']);
const LPA_BY_ICCID = new Set(['ENABLE_PROFILE', 'DISABLE_PROFILE', 'DELETE_PROFILE', 'SET_NICKNAME']);

export function checkDeviceActivity(device: Loose, path: string, ctx: ActivityContext): void {
  const { problem } = ctx;

  items(device.history).forEach((h, k) => {
    const p = `${path}.history[${k}]`;
    const vehicle = str(h.vehicle);
    if (vehicle === undefined) return;
    ctx.resolveVehicle(vehicle, `${p}.vehicle`);
    const event = str(h.event);
    if (event && (DEVICE_HISTORY_EVENTS as readonly string[]).includes(event) && !VEHICLE_EVENTS.has(event))
      problem(`${p}.vehicle`, `only INSTALLED and REMOVED events have a vehicle (this one is ${event})`);
  });

  // Fields and their readings.
  const fields = items(device.fields);
  duplicates(
    fields.map((f, k) => ({ key: str(f.name), path: `${path}.fields[${k}].name` })),
    problem,
    (name) => `field ${q(name)}`,
  );
  const fieldIndex = new Map<string, number>();
  fields.forEach((f, k) => {
    const name = str(f.name);
    if (name !== undefined && !fieldIndex.has(name)) fieldIndex.set(name, k);
    if ((f.lastValue === undefined) !== (f.lastRecordedAt === undefined))
      problem(
        `${path}.fields[${k}]`,
        'lastValue and lastRecordedAt go together: give both, or neither to take the latest reading',
      );
  });
  const readings = items(device.readings);
  const latest = new Map<string, { at: number; path: string }>();
  readings.forEach((r, k) => {
    const p = `${path}.readings[${k}]`;
    const field = str(r.field);
    if (field === undefined) return;
    if (!fieldIndex.has(field)) {
      const names = [...fieldIndex.keys()];
      problem(
        `${p}.field`,
        `unknown field ${q(field)} (expected the name of one of this device's fields${names.length ? `: ${names.join(', ')}` : '; none is listed'})`,
      );
      return;
    }
    const at = time(r.recordedAt);
    if (known(at) && at > (latest.get(field)?.at ?? -Infinity)) latest.set(field, { at, path: p });
  });
  duplicates(
    readings.map((r, k) => {
      const at = time(r.recordedAt);
      return {
        key: str(r.field) && known(at) ? `${str(r.field)} at ${new Date(at).toISOString()}` : undefined,
        path: `${path}.readings[${k}]`,
      };
    }),
    problem,
    (key) => `reading of field ${key}`,
  );
  fields.forEach((f, k) => {
    const last = time(f.lastRecordedAt);
    const newest = latest.get(str(f.name) ?? '');
    if (newest && known(last) && newest.at > last)
      problem(
        `${path}.fields[${k}].lastRecordedAt`,
        `${String(f.lastRecordedAt)} is before the field's latest reading (${newest.path})`,
      );
  });

  duplicates(
    items(device.batteryAnnotations).map((b, k) => {
      const at = time(b.recordedAt);
      return {
        key: known(at) ? new Date(at).toISOString() : undefined,
        path: `${path}.batteryAnnotations[${k}].recordedAt`,
      };
    }),
    problem,
    (at) => `battery annotation at ${at}`,
  );

  items(device.logFetches).forEach((l, k) => {
    const p = `${path}.logFetches[${k}]`;
    const action = str(l.action);
    if (action !== undefined && !ctx.hasLogfetchAction(action)) {
      const ids = ctx.logfetchActionIds();
      problem(
        `${p}.action`,
        `unknown log-fetch action ${q(action)} (expected the id of an action of logfetchActions or of the database${ids.length ? `: ${ids.join(', ')}` : '; there is none'})`,
      );
    }
    const by = str(l.requestedBy);
    if (by !== undefined) ctx.resolveAccount(by, `${p}.requestedBy`);
    const status = str(l.status);
    checkCompletion(l, p, status, 'log fetch', ['COMPLETED', 'EXPIRED'], problem);
    if (l.fileUrl !== undefined && status !== undefined && status !== 'COMPLETED')
      problem(`${p}.fileUrl`, `only a COMPLETED log fetch has a fileUrl (this one is ${status})`);
  });

  items(device.remoteDiags).forEach((r, k) => {
    const p = `${path}.remoteDiags[${k}]`;
    const status = str(r.status);
    checkCompletion(r, p, status, 'remote diagnostic', ['COMPLETED'], problem);
    if (status === undefined || status === 'COMPLETED') return;
    for (const key of ['dtcCodes', 'vin', 'batteryVoltage', 'odometerKm'] as const) {
      const present = key === 'dtcCodes' ? list(r[key]).length > 0 : r[key] !== undefined;
      if (present)
        problem(`${p}.${key}`, `only a COMPLETED remote diagnostic has results (this one is ${status})`);
    }
  });

  checkPeriods(items(device.profilePrivacies), `${path}.profilePrivacies`, 'privacy level', problem);
  checkPeriods(items(device.profileModes), `${path}.profileModes`, 'mode', problem);

  items(device.lpaOperations).forEach((o, k) => {
    const p = `${path}.lpaOperations[${k}]`;
    const fn = str(o.functionName);
    const has = (key: string) => str(o[key]) !== undefined;
    if (fn && LPA_DOWNLOADS.has(fn) && !has('activationCode') && !(has('smdpAddress') && has('matchingId')))
      problem(`${p}.activationCode`, `${fn} needs activationCode, or smdpAddress and matchingId`);
    if (fn && LPA_BY_ICCID.has(fn) && !has('iccid'))
      problem(`${p}.iccid`, `${fn} needs the iccid of the profile`);
    if (fn === 'SET_NICKNAME' && !has('nickname')) problem(`${p}.nickname`, 'SET_NICKNAME needs a nickname');
    const code = str(o.activationCode);
    const smdp = str(o.smdpAddress);
    const codeSmdp = code?.split('$')[1];
    if (code && smdp && codeSmdp && codeSmdp.toLowerCase() !== smdp.toLowerCase())
      problem(
        `${p}.smdpAddress`,
        `${q(smdp)} differs from the SM-DP+ address of activationCode (${q(codeSmdp)})`,
      );
    const requested = time(o.requestedAt);
    const updated = time(o.updatedAt);
    if (known(requested, updated) && updated < requested)
      problem(`${p}.updatedAt`, `updatedAt is before requestedAt (${String(o.requestedAt)})`);
  });
}

/** completedAt: not before requestedAt, present for the done statuses, absent before. */
function checkCompletion(
  row: Loose,
  p: string,
  status: string | undefined,
  what: string,
  done: string[],
  problem: Problem,
) {
  const requested = time(row.requestedAt);
  const completed = time(row.completedAt);
  if (known(requested, completed) && completed < requested)
    problem(`${p}.completedAt`, `completedAt is before requestedAt (${String(row.requestedAt)})`);
  if (status === undefined) return;
  if (done.includes(status) && row.completedAt === undefined)
    problem(`${p}.completedAt`, `${article(status)} ${what} needs completedAt`);
  if (NOT_DONE.has(status) && row.completedAt !== undefined)
    problem(`${p}.completedAt`, `${article(status)} ${what} has no completedAt yet`);
}

// --- Catalogs ---------------------------------------------------------------------------------

export interface CatalogPlan {
  /** Position of each log-fetch action of the file, by index. */
  logfetchPositions: number[];
  hasLogfetchAction(id: string): boolean;
  logfetchActionIds(): string[];
}

/**
 * The top-level `metrics` and `logfetchActions`: ids and names unique in the file and new to the
 * database (like products: refer to the database's entries without listing them again).
 */
export async function checkCatalogs(knex: Knex, root: Loose, problem: Problem): Promise<CatalogPlan> {
  const metrics = items(root.metrics);
  const actions = items(root.logfetchActions);
  const dbMetrics: Array<{ id: string; name: string }> = await knex('fleet.metrics').select('id', 'name');
  const dbActions: Array<{ id: string; position: number }> = await knex('fleet.logfetch_actions').select(
    'id',
    'position',
  );
  const inDatabase = (rows: Array<Record<string, unknown>>, key: string) =>
    new Set(rows.map((r) => String(r[key])));
  const catalog = (
    entries: Loose[],
    base: string,
    keys: Array<{ key: string; what: string; existing: Set<string> }>,
  ) => {
    for (const { key, what, existing } of keys) {
      const located = entries.map((e, i) => ({ key: str(e[key]), path: `${base}[${i}].${key}` }));
      duplicates(located, problem, (value) => `${what} ${q(value)}`);
      for (const { key: value, path } of located)
        if (value !== undefined && existing.has(value))
          problem(
            path,
            `${what} ${q(value)} already exists in the database (refer to it without listing it)`,
          );
    }
  };
  catalog(metrics, 'metrics', [
    { key: 'id', what: 'metric id', existing: inDatabase(dbMetrics, 'id') },
    { key: 'name', what: 'metric name', existing: inDatabase(dbMetrics, 'name') },
  ]);
  catalog(actions, 'logfetchActions', [
    { key: 'id', what: 'log-fetch action id', existing: inDatabase(dbActions, 'id') },
  ]);
  metrics.forEach((m, i) => {
    if (str(m.rawUnit) !== undefined && str(m.rawUnit) === str(m.unit))
      problem(`metrics[${i}].rawUnit`, 'rawUnit is only for a unit other than unit (leave it out)');
  });

  const ids = new Set([...dbActions.map((a) => a.id), ...actions.map((a) => str(a.id)).filter(Boolean)]);
  let next = dbActions.reduce((max, a) => Math.max(max, a.position), 0);
  const positions = actions.map((a) => {
    const given = num(a.position);
    if (given !== undefined && Number.isInteger(given)) {
      next = Math.max(next, given);
      return given;
    }
    return (next += 1);
  });
  return {
    logfetchPositions: positions,
    hasLogfetchAction: (id) => ids.has(id),
    logfetchActionIds: () => [...ids].filter((id): id is string => id !== undefined).sort(),
  };
}
