/**
 * Pass 2 of the dataset checks, one named check per entity of an organization: references
 * resolve inside the organization, the hierarchy has no cycle, sessions and trips are consistent.
 * Each check reads the raw input defensively and reports at the JSON path.
 */
import {
  checkAccountActivity,
  checkDeviceActivity,
  checkTripActivity,
  checkVehicleDetails,
  type ActivityContext,
} from '../validate-activity';
import { findCycles } from './cycles';
import {
  eachRef,
  list,
  obj,
  q,
  str,
  type Loose,
  type OrgIndex,
  type Problem,
  type Resolver,
} from './context';

export interface OrgCheck {
  org: Loose;
  index: OrgIndex;
  problem: Problem;
  resolve: Resolver;
  activity: ActivityContext;
}

export function checkAccounts({ org, index, activity }: OrgCheck): void {
  list(org.accounts)
    .map(obj)
    .forEach((a, i) => checkAccountActivity(a, `${index.path}.accounts[${i}]`, activity));
}

export function checkGroups({ org, index, problem, resolve }: OrgCheck): void {
  const parentsOf: number[][] = [];
  list(org.groups)
    .map(obj)
    .forEach((g, i) => {
      const p = `${index.path}.groups[${i}]`;
      const parents: number[] = [];
      eachRef(g.parents, `${p}.parents`, (ref, rp) => {
        const parent = resolve.group(index, ref, rp);
        if (parent === i) problem(rp, `group ${q(index.groupLabels[i]!)} cannot be its own parent`);
        else if (parent !== undefined) parents.push(parent);
      });
      parentsOf.push(parents);
      eachRef(g.members, `${p}.members`, (ref, rp) => resolve.account(index, ref, rp));
      const owner = str(g.owner);
      if (owner) resolve.account(index, owner, `${p}.owner`);
    });
  for (const cycle of findCycles(parentsOf)) {
    const labels = [...cycle, cycle[0]!].map((i) => index.groupLabels[i]!);
    problem(
      `${index.path}.groups[${cycle[0]}].parents`,
      `cycle in the group hierarchy: ${labels.join(' -> ')}`,
    );
  }
}

export function checkVehicles({ org, index, resolve, activity }: OrgCheck): void {
  list(org.vehicles)
    .map(obj)
    .forEach((v, i) => {
      eachRef(v.groups, `${index.path}.vehicles[${i}].groups`, (ref, rp) => resolve.group(index, ref, rp));
      checkVehicleDetails(v, `${index.path}.vehicles[${i}]`, activity);
    });
}

export function checkDevices(check: OrgCheck): void {
  const { org, index, problem, resolve, activity } = check;
  const currentOf = new Map<number, string>();
  list(org.devices)
    .map(obj)
    .forEach((d, i) => {
      const p = `${index.path}.devices[${i}]`;
      eachRef(d.groups, `${p}.groups`, (ref, rp) => resolve.group(index, ref, rp));
      checkDeviceActivity(d, p, activity);
      const owner = str(d.owner);
      if (owner) resolve.account(index, owner, `${p}.owner`);
      const product = str(d.product);
      if (product) resolve.product(product, `${p}.product`);
      const currentRef = str(d.currentVehicle);
      const current =
        currentRef !== undefined ? resolve.vehicle(index, currentRef, `${p}.currentVehicle`) : undefined;
      if (current !== undefined) {
        const other = currentOf.get(current);
        if (other)
          problem(
            `${p}.currentVehicle`,
            `vehicle ${q(currentRef!)} is already the current vehicle of ${other}`,
          );
        else currentOf.set(current, p);
      }
      checkDeviceSessions(check, d, p, currentRef, current);
    });
}

/** A device's vehicle sessions: ordered in time, at most one open, the open one in the current vehicle. */
function checkDeviceSessions(
  { index, problem, resolve }: OrgCheck,
  d: Loose,
  p: string,
  currentRef: string | undefined,
  current: number | undefined,
): void {
  let open = 0;
  list(d.vehicleSessions)
    .map(obj)
    .forEach((s, k) => {
      const sp = `${p}.vehicleSessions[${k}]`;
      const vehicleRef = str(s.vehicle);
      const vehicle =
        vehicleRef !== undefined ? resolve.vehicle(index, vehicleRef, `${sp}.vehicle`) : undefined;
      const started = Date.parse(String(s.startedAt));
      const ended = s.endedAt === undefined || s.endedAt === null ? undefined : Date.parse(String(s.endedAt));
      if (ended !== undefined && !Number.isNaN(ended) && !Number.isNaN(started) && ended < started) {
        problem(`${sp}.endedAt`, 'a session cannot end before it starts');
      }
      if (ended !== undefined) return;
      open++;
      if (open > 1) problem(sp, 'a device has at most one open session (without endedAt)');
      else if (currentRef === undefined)
        problem(sp, "an open session (without endedAt) needs the device's currentVehicle");
      else if (vehicle !== undefined && current !== undefined && vehicle !== current) {
        problem(sp, `the open session's vehicle must be the device's currentVehicle ${q(currentRef)}`);
      }
    });
}

export function checkDrivers({ org, index, problem, resolve }: OrgCheck): void {
  list(org.drivers)
    .map(obj)
    .forEach((d, i) => {
      const p = `${index.path}.drivers[${i}]`;
      eachRef(d.groups, `${p}.groups`, (ref, rp) => resolve.group(index, ref, rp));
      for (const field of ['userProfile', 'userContact'] as const) {
        const account = str(d[field]);
        if (account) resolve.account(index, account, `${p}.${field}`);
      }
      for (const field of ['currentVehicle', 'defaultVehicle'] as const) {
        const vehicle = str(d[field]);
        if (vehicle) resolve.vehicle(index, vehicle, `${p}.${field}`);
      }
      list(d.vehicleSessions)
        .map(obj)
        .forEach((s, k) => {
          const sp = `${p}.vehicleSessions[${k}]`;
          const vehicle = str(s.vehicle);
          if (vehicle) resolve.vehicle(index, vehicle, `${sp}.vehicle`);
          const started = Date.parse(String(s.startedAt));
          const ended = s.endedAt == null ? NaN : Date.parse(String(s.endedAt));
          if (!Number.isNaN(started) && !Number.isNaN(ended) && ended < started)
            problem(`${sp}.endedAt`, 'a session cannot end before it starts');
        });
    });
}

interface TripSpan {
  start: number;
  end: number;
  path: string;
}

export function checkTrips(check: OrgCheck): void {
  const { org, index, problem, resolve, activity } = check;
  const byDevice = new Map<string, TripSpan[]>();
  list(org.trips)
    .map(obj)
    .forEach((t, i) => {
      const p = `${index.path}.trips[${i}]`;
      checkTripActivity(t, p, activity);
      const device = str(t.device);
      if (device && !index.deviceIds.has(device)) {
        problem(
          `${p}.device`,
          `unknown device ${q(device)} (expected the IMEI of a device of this organization)`,
        );
      }
      const vehicle = str(t.vehicle);
      if (vehicle) resolve.vehicle(index, vehicle, `${p}.vehicle`);
      const driver = str(t.driver);
      if (driver) resolve.driver(index, driver, `${p}.driver`);
      const span = checkTripTimes(t, p, problem);
      if (span && device) {
        const trips = byDevice.get(device) ?? [];
        trips.push(span);
        byDevice.set(device, trips);
      }
    });
  for (const trips of byDevice.values()) {
    trips.sort((a, b) => a.start - b.start);
    for (let k = 1; k < trips.length; k++) {
      if (trips[k]!.start < trips[k - 1]!.end)
        problem(trips[k]!.path, `overlaps ${trips[k - 1]!.path} (a device records one trip at a time)`);
    }
  }
}

/** End after start, a plausible average speed, idle time within the trip; the span when it has one. */
function checkTripTimes(t: Loose, p: string, problem: Problem): TripSpan | undefined {
  const start = Date.parse(String(t.startedAt));
  const end = Date.parse(String(t.endedAt));
  if (Number.isNaN(start) || Number.isNaN(end)) return undefined;
  if (end < start) {
    problem(`${p}.endedAt`, 'a trip cannot end before it starts');
    return undefined;
  }
  const hours = (end - start) / 3_600_000;
  const distance = typeof t.distanceKm === 'number' ? t.distanceKm : undefined;
  const maxSpeed = typeof t.maxSpeedKmh === 'number' ? t.maxSpeedKmh : undefined;
  if (distance !== undefined && distance > 0) {
    const average = hours > 0 ? distance / hours : Infinity;
    if (average > 250)
      problem(
        `${p}.distanceKm`,
        `${distance} km in ${Math.round(hours * 3600)} s is an average of more than 250 km/h`,
      );
    else if (maxSpeed !== undefined && average > maxSpeed + 0.5)
      problem(
        `${p}.maxSpeedKmh`,
        `maxSpeedKmh ${maxSpeed} is below the average speed ${average.toFixed(1)} km/h (distance / duration)`,
      );
  }
  if (typeof t.idleSeconds === 'number' && t.idleSeconds > hours * 3600)
    problem(`${p}.idleSeconds`, 'idleSeconds is longer than the trip');
  return { start, end, path: p };
}
