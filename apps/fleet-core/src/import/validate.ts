/**
 * Checks a dataset beyond its shape and lists EVERY problem with its JSON path:
 * - references: unknown or ambiguous account, group, product or vehicle (references stay inside
 *   their organization; products may also name one already in the database);
 * - duplicates: organization/account/group/product/vehicle ids, e-mails (case-insensitive),
 *   device ids, VINs, product names, in the file and against the database;
 * - hierarchy: a group that is its own parent, cycles among parents;
 * - sessions: end before start, more than one open session, an open session that is not the
 *   device's currentVehicle, a vehicle that is the current vehicle of two devices.
 * - drivers: duplicate ids and idKeys, unknown accounts, vehicles and groups, sessions ending
 *   before they start.
 * - trips: unknown device (of this organization), vehicle or driver (ambiguous labels too), a trip
 *   ending before it starts, an average speed (distance / duration) above maxSpeedKmh or above
 *   250 km/h, idle time longer than the trip, two trips of one device overlapping in time.
 * - what trips and devices record, alert preferences, vehicle details and the metric and
 *   log-fetch catalogs: validate-activity.ts (harshes inside their trip, overspeeds above their
 *   limit, readings of declared fields, overlapping periods, unknown log-fetch actions...).
 *
 * It walks the raw input defensively (not the parsed one), so reference problems are reported
 * together with shape problems found by the zod schema. It also assigns the ids new rows get.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  checkAccountActivity,
  checkCatalogs,
  checkDeviceActivity,
  checkTripActivity,
  checkVehicleDetails,
  type ActivityContext,
} from './validate-activity';

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOf = (v: unknown): string | undefined => {
  const s = str(v);
  return s && UUID.test(s) ? s.toLowerCase() : undefined;
};
const q = (s: string) => JSON.stringify(s);

/** The ids assigned to each entity, by organization and index in the file. */
export interface OrgPlan {
  id: string;
  accountIds: string[];
  groupIds: string[];
  vehicleIds: string[];
  driverIds: string[];
  tripIds: string[];
  resolveAccount(ref: string): string;
  resolveGroup(ref: string): string;
  resolveVehicle(ref: string): string;
  resolveDriver(ref: string): string;
}

export interface Plan {
  organizations: OrgPlan[];
  /** Product ids of the file, by organization index (-1 for top-level) and index. */
  productIds: Map<string, string>;
  resolveProduct(ref: string): string;
  /** Catalog position of each top-level log-fetch action, by index. */
  logfetchPositions: number[];
}

interface OrgIndex {
  o: number;
  path: string;
  id: string;
  accountIds: string[];
  accountByEmail: Map<string, number>;
  accountById: Map<string, number>;
  groupIds: string[];
  groupById: Map<string, number>;
  groupByLabel: Map<string, number[]>;
  groupLabels: string[];
  vehicleIds: string[];
  vehicleById: Map<string, number>;
  vehicleByVin: Map<string, number[]>;
  vehicleByPlate: Map<string, number[]>;
  driverIds: string[];
  driverById: Map<string, number>;
  driverByIdKey: Map<string, number>;
  driverByLabel: Map<string, number[]>;
  tripIds: string[];
  deviceIds: Set<string>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const existing = map.get(key);
  if (existing) existing.push(value);
  else map.set(key, [value]);
}

export async function checkDataset(knex: Knex, input: unknown, problems: string[]): Promise<Plan> {
  const problem = (path: string, message: string) => problems.push(`${path}: ${message}`);
  const root = obj(input);
  const orgs = list(root.organizations).map(obj);

  // Pass 1: ids and natural keys, duplicates inside the file.
  const seen = {
    orgIds: new Map<string, string>(),
    accountIds: new Map<string, string>(),
    emails: new Map<string, { path: string; o: number }>(),
    groupIds: new Map<string, string>(),
    vehicleIds: new Map<string, string>(),
    vins: new Map<string, string>(),
    deviceIds: new Map<string, string>(),
    productIds: new Map<string, string>(),
    productNames: new Map<string, string>(),
    driverIds: new Map<string, string>(),
    tripIds: new Map<string, string>(),
  };
  const unique = (map: Map<string, string>, key: string | undefined, path: string, what: string) => {
    if (key === undefined) return;
    const first = map.get(key);
    if (first !== undefined) problem(path, `duplicate ${what} ${q(key)} (also at ${first})`);
    else map.set(key, path);
  };

  // Products: a global catalog, listed at the top level or inside organizations.
  const productIds = new Map<string, string>();
  const productByKey = new Map<string, string>();
  const productLists: Array<[string, unknown[]]> = [['products', list(root.products)]];
  orgs.forEach((org, o) => productLists.push([`organizations[${o}].products`, list(org.products)]));
  for (const [base, products] of productLists) {
    products.map(obj).forEach((p, i) => {
      const path = `${base}[${i}]`;
      const id = uuidOf(p.id) ?? randomUUID();
      unique(seen.productIds, uuidOf(p.id), `${path}.id`, 'product id');
      const name = str(p.name);
      unique(seen.productNames, name, `${path}.name`, 'product name');
      productIds.set(path, id);
      if (name && !productByKey.has(name)) productByKey.set(name, id);
      productByKey.set(id, id);
    });
  }

  const indexes: OrgIndex[] = orgs.map((org, o) => {
    const path = `organizations[${o}]`;
    unique(seen.orgIds, uuidOf(org.id), `${path}.id`, 'organization id');
    const index: OrgIndex = {
      o,
      path,
      id: uuidOf(org.id) ?? randomUUID(),
      accountIds: [],
      accountByEmail: new Map(),
      accountById: new Map(),
      groupIds: [],
      groupById: new Map(),
      groupByLabel: new Map(),
      groupLabels: [],
      vehicleIds: [],
      vehicleById: new Map(),
      vehicleByVin: new Map(),
      vehicleByPlate: new Map(),
      driverIds: [],
      driverById: new Map(),
      driverByIdKey: new Map(),
      driverByLabel: new Map(),
      tripIds: [],
      deviceIds: new Set(),
    };
    list(org.accounts)
      .map(obj)
      .forEach((a, i) => {
        const p = `${path}.accounts[${i}]`;
        const id = uuidOf(a.id) ?? randomUUID();
        unique(seen.accountIds, uuidOf(a.id), `${p}.id`, 'account id');
        index.accountIds.push(id);
        index.accountById.set(id, i);
        const email = str(a.email)?.toLowerCase();
        if (email) {
          const first = seen.emails.get(email);
          if (first) problem(`${p}.email`, `duplicate email ${q(email)} (also at ${first.path})`);
          else seen.emails.set(email, { path: `${p}.email`, o });
          if (!index.accountByEmail.has(email)) index.accountByEmail.set(email, i);
        }
      });
    list(org.groups)
      .map(obj)
      .forEach((g, i) => {
        const p = `${path}.groups[${i}]`;
        const id = uuidOf(g.id) ?? randomUUID();
        unique(seen.groupIds, uuidOf(g.id), `${p}.id`, 'group id');
        index.groupIds.push(id);
        index.groupById.set(id, i);
        const label = str(g.label) ?? `#${i}`;
        index.groupLabels.push(label);
        push(index.groupByLabel, label, i);
      });
    list(org.vehicles)
      .map(obj)
      .forEach((v, i) => {
        const p = `${path}.vehicles[${i}]`;
        const id = uuidOf(v.id) ?? randomUUID();
        unique(seen.vehicleIds, uuidOf(v.id), `${p}.id`, 'vehicle id');
        index.vehicleIds.push(id);
        index.vehicleById.set(id, i);
        const vin = str(v.vin)?.toUpperCase();
        unique(seen.vins, vin, `${p}.vin`, 'VIN');
        if (vin) push(index.vehicleByVin, vin, i);
        const plate = str(v.plate);
        if (plate) push(index.vehicleByPlate, plate.toUpperCase(), i);
      });
    list(org.devices)
      .map(obj)
      .forEach((d, i) => {
        unique(seen.deviceIds, str(d.id), `${path}.devices[${i}].id`, 'device id');
        const id = str(d.id);
        if (id) index.deviceIds.add(id);
      });
    const idKeys = new Map<string, string>();
    list(org.drivers)
      .map(obj)
      .forEach((d, i) => {
        const p = `${path}.drivers[${i}]`;
        const id = uuidOf(d.id) ?? randomUUID();
        unique(seen.driverIds, uuidOf(d.id), `${p}.id`, 'driver id');
        index.driverIds.push(id);
        index.driverById.set(id, i);
        const idKey = str(d.idKey);
        unique(idKeys, idKey, `${p}.idKey`, 'driver idKey');
        if (idKey && !index.driverByIdKey.has(idKey)) index.driverByIdKey.set(idKey, i);
        const label = str(d.label);
        if (label) push(index.driverByLabel, label, i);
      });
    list(org.trips)
      .map(obj)
      .forEach((t, i) => {
        unique(seen.tripIds, uuidOf(t.id), `${path}.trips[${i}].id`, 'trip id');
        index.tripIds.push(uuidOf(t.id) ?? randomUUID());
      });
    return index;
  });

  const catalogs = await checkCatalogs(knex, root, problem);

  // Against the database: nothing of the file may exist already.
  const dbProducts = await knex('fleet.products').select('id', 'name');
  const dbProductByKey = new Map<string, string>();
  for (const p of dbProducts as Array<{ id: string; name: string }>) {
    dbProductByKey.set(p.name, p.id);
    dbProductByKey.set(p.id, p.id);
  }
  for (const [name, path] of seen.productNames) {
    if (dbProductByKey.has(name)) {
      problem(
        path,
        `product ${q(name)} already exists in the database (refer to it by name from devices without listing it)`,
      );
    }
  }
  const existing = async (sql: string, values: string[]): Promise<Set<string>> => {
    if (values.length === 0) return new Set();
    const bindings = Array.from({ length: sql.split('?').length - 1 }, () => values);
    const { rows } = await knex.raw<{ rows: Array<{ key: string }> }>(sql, bindings);
    return new Set(rows.map((r) => r.key));
  };
  const report = async (map: Map<string, string>, sql: string, what: string, key = (k: string) => k) => {
    const found = await existing(sql, [...map.keys()].map(key));
    for (const [k, path] of map)
      if (found.has(key(k))) problem(path, `${what} ${q(k)} already exists in the database`);
  };
  await report(
    seen.orgIds,
    'select id::text as key from fleet.organizations where id = any(?::uuid[])',
    'organization id',
  );
  await report(
    seen.productIds,
    'select id::text as key from fleet.products where id = any(?::uuid[])',
    'product id',
  );
  await report(
    seen.accountIds,
    'select id::text as key from fleet.accounts where id = any(?::uuid[]) union select id::text from sso.users where id = any(?::uuid[])',
    'account id',
  );
  await report(
    seen.groupIds,
    'select id::text as key from fleet.groups where id = any(?::uuid[])',
    'group id',
  );
  await report(
    seen.vehicleIds,
    'select id::text as key from fleet.vehicles where id = any(?::uuid[])',
    'vehicle id',
  );
  await report(seen.deviceIds, 'select id as key from fleet.devices where id = any(?::text[])', 'device id');
  await report(
    seen.driverIds,
    'select id::text as key from fleet.drivers where id = any(?::uuid[])',
    'driver id',
  );
  await report(seen.tripIds, 'select id::text as key from fleet.trips where id = any(?::uuid[])', 'trip id');
  const emailPaths = new Map([...seen.emails].map(([email, { path }]) => [email, path]));
  await report(
    emailPaths,
    'select lower(email) as key from fleet.accounts where lower(email) = any(?::text[]) union select lower(email) from sso.users where lower(email) = any(?::text[])',
    'account with email',
  );

  // Pass 2: references.
  const resolveProduct = (ref: string, path: string): string | undefined => {
    const id = productByKey.get(ref) ?? dbProductByKey.get(ref) ?? dbProductByKey.get(ref.toLowerCase());
    if (!id) problem(path, `unknown product ${q(ref)}`);
    return id;
  };
  const resolveAccount = (index: OrgIndex, ref: string, path: string): string | undefined => {
    const key = ref.toLowerCase();
    const i = index.accountById.get(key) ?? index.accountByEmail.get(key);
    if (i !== undefined) return index.accountIds[i];
    const elsewhere = seen.emails.get(key);
    if (elsewhere && elsewhere.o !== index.o)
      problem(path, `account ${q(ref)} belongs to another organization`);
    else problem(path, `unknown account ${q(ref)}`);
    return undefined;
  };
  const resolveGroupIndex = (index: OrgIndex, ref: string, path: string): number | undefined => {
    const byId = index.groupById.get(ref.toLowerCase());
    if (byId !== undefined) return byId;
    const byLabel = index.groupByLabel.get(ref) ?? [];
    if (byLabel.length === 1) return byLabel[0];
    if (byLabel.length > 1)
      problem(
        path,
        `group label ${q(ref)} is ambiguous (${byLabel.length} groups have it): use the group's id`,
      );
    else problem(path, `unknown group ${q(ref)}`);
    return undefined;
  };
  const resolveVehicleIndex = (index: OrgIndex, ref: string, path: string): number | undefined => {
    const byId = index.vehicleById.get(ref.toLowerCase());
    if (byId !== undefined) return byId;
    const matches =
      index.vehicleByVin.get(ref.toUpperCase()) ?? index.vehicleByPlate.get(ref.toUpperCase()) ?? [];
    if (matches.length === 1) return matches[0];
    if (matches.length > 1)
      problem(
        path,
        `vehicle ${q(ref)} is ambiguous (${matches.length} vehicles have this plate): use the id or VIN`,
      );
    else
      problem(path, `unknown vehicle ${q(ref)} (expected a vehicle id, VIN or plate of this organization)`);
    return undefined;
  };
  const resolveDriverIndex = (index: OrgIndex, ref: string, path: string): number | undefined => {
    const byKey = index.driverById.get(ref.toLowerCase()) ?? index.driverByIdKey.get(ref);
    if (byKey !== undefined) return byKey;
    const byLabel = index.driverByLabel.get(ref) ?? [];
    if (byLabel.length === 1) return byLabel[0];
    if (byLabel.length > 1)
      problem(
        path,
        `driver label ${q(ref)} is ambiguous (${byLabel.length} drivers have it): use the id or idKey`,
      );
    else
      problem(path, `unknown driver ${q(ref)} (expected a driver id, idKey or label of this organization)`);
    return undefined;
  };
  const eachRef = (value: unknown, path: string, fn: (ref: string, path: string) => void) =>
    list(value).forEach((r, k) => {
      const s = str(r);
      if (s) fn(s, `${path}[${k}]`);
    });

  const activity = (index: OrgIndex): ActivityContext => ({
    problem,
    resolveAccount: (ref, path) => resolveAccount(index, ref, path),
    resolveVehicle: (ref, path) => resolveVehicleIndex(index, ref, path),
    hasLogfetchAction: catalogs.hasLogfetchAction,
    logfetchActionIds: catalogs.logfetchActionIds,
  });

  orgs.forEach((org, o) => {
    const index = indexes[o]!;
    const path = index.path;
    const context = activity(index);
    list(org.accounts)
      .map(obj)
      .forEach((a, i) => checkAccountActivity(a, `${path}.accounts[${i}]`, context));
    const parentsOf: number[][] = [];
    list(org.groups)
      .map(obj)
      .forEach((g, i) => {
        const p = `${path}.groups[${i}]`;
        const parents: number[] = [];
        eachRef(g.parents, `${p}.parents`, (ref, rp) => {
          const parent = resolveGroupIndex(index, ref, rp);
          if (parent === i) problem(rp, `group ${q(index.groupLabels[i]!)} cannot be its own parent`);
          else if (parent !== undefined) parents.push(parent);
        });
        parentsOf.push(parents);
        eachRef(g.members, `${p}.members`, (ref, rp) => resolveAccount(index, ref, rp));
        const owner = str(g.owner);
        if (owner) resolveAccount(index, owner, `${p}.owner`);
      });
    for (const cycle of findCycles(parentsOf)) {
      const labels = [...cycle, cycle[0]!].map((i) => index.groupLabels[i]!);
      problem(`${path}.groups[${cycle[0]}].parents`, `cycle in the group hierarchy: ${labels.join(' -> ')}`);
    }
    list(org.vehicles)
      .map(obj)
      .forEach((v, i) => {
        eachRef(v.groups, `${path}.vehicles[${i}].groups`, (ref, rp) => resolveGroupIndex(index, ref, rp));
        checkVehicleDetails(v, `${path}.vehicles[${i}]`, context);
      });
    const currentOf = new Map<number, string>();
    list(org.devices)
      .map(obj)
      .forEach((d, i) => {
        const p = `${path}.devices[${i}]`;
        eachRef(d.groups, `${p}.groups`, (ref, rp) => resolveGroupIndex(index, ref, rp));
        checkDeviceActivity(d, p, context);
        const owner = str(d.owner);
        if (owner) resolveAccount(index, owner, `${p}.owner`);
        const product = str(d.product);
        if (product) resolveProduct(product, `${p}.product`);
        const currentRef = str(d.currentVehicle);
        const current =
          currentRef !== undefined
            ? resolveVehicleIndex(index, currentRef, `${p}.currentVehicle`)
            : undefined;
        if (current !== undefined) {
          const other = currentOf.get(current);
          if (other)
            problem(
              `${p}.currentVehicle`,
              `vehicle ${q(currentRef!)} is already the current vehicle of ${other}`,
            );
          else currentOf.set(current, p);
        }
        let open = 0;
        list(d.vehicleSessions)
          .map(obj)
          .forEach((s, k) => {
            const sp = `${p}.vehicleSessions[${k}]`;
            const vehicleRef = str(s.vehicle);
            const vehicle =
              vehicleRef !== undefined ? resolveVehicleIndex(index, vehicleRef, `${sp}.vehicle`) : undefined;
            const started = Date.parse(String(s.startedAt));
            const ended =
              s.endedAt === undefined || s.endedAt === null ? undefined : Date.parse(String(s.endedAt));
            if (ended !== undefined && !Number.isNaN(ended) && !Number.isNaN(started) && ended < started) {
              problem(`${sp}.endedAt`, 'a session cannot end before it starts');
            }
            if (ended === undefined) {
              open++;
              if (open > 1) problem(sp, 'a device has at most one open session (without endedAt)');
              else if (currentRef === undefined)
                problem(sp, "an open session (without endedAt) needs the device's currentVehicle");
              else if (vehicle !== undefined && current !== undefined && vehicle !== current) {
                problem(
                  sp,
                  `the open session's vehicle must be the device's currentVehicle ${q(currentRef)}`,
                );
              }
            }
          });
      });
  });

  orgs.forEach((org, o) => {
    const index = indexes[o]!;
    const path = index.path;
    const context = activity(index);
    list(org.drivers)
      .map(obj)
      .forEach((d, i) => {
        const p = `${path}.drivers[${i}]`;
        eachRef(d.groups, `${p}.groups`, (ref, rp) => resolveGroupIndex(index, ref, rp));
        for (const field of ['userProfile', 'userContact'] as const) {
          const account = str(d[field]);
          if (account) resolveAccount(index, account, `${p}.${field}`);
        }
        for (const field of ['currentVehicle', 'defaultVehicle'] as const) {
          const vehicle = str(d[field]);
          if (vehicle) resolveVehicleIndex(index, vehicle, `${p}.${field}`);
        }
        list(d.vehicleSessions)
          .map(obj)
          .forEach((s, k) => {
            const sp = `${p}.vehicleSessions[${k}]`;
            const vehicle = str(s.vehicle);
            if (vehicle) resolveVehicleIndex(index, vehicle, `${sp}.vehicle`);
            const started = Date.parse(String(s.startedAt));
            const ended = s.endedAt == null ? NaN : Date.parse(String(s.endedAt));
            if (!Number.isNaN(started) && !Number.isNaN(ended) && ended < started)
              problem(`${sp}.endedAt`, 'a session cannot end before it starts');
          });
      });
    const byDevice = new Map<string, Array<{ start: number; end: number; path: string }>>();
    list(org.trips)
      .map(obj)
      .forEach((t, i) => {
        const p = `${path}.trips[${i}]`;
        checkTripActivity(t, p, context);
        const device = str(t.device);
        if (device && !index.deviceIds.has(device)) {
          problem(
            `${p}.device`,
            `unknown device ${q(device)} (expected the IMEI of a device of this organization)`,
          );
        }
        const vehicle = str(t.vehicle);
        if (vehicle) resolveVehicleIndex(index, vehicle, `${p}.vehicle`);
        const driver = str(t.driver);
        if (driver) resolveDriverIndex(index, driver, `${p}.driver`);
        const start = Date.parse(String(t.startedAt));
        const end = Date.parse(String(t.endedAt));
        if (Number.isNaN(start) || Number.isNaN(end)) return;
        if (end < start) {
          problem(`${p}.endedAt`, 'a trip cannot end before it starts');
          return;
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
        if (device) {
          const trips = byDevice.get(device) ?? [];
          trips.push({ start, end, path: p });
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
  });

  const organizations: OrgPlan[] = indexes.map((index) => {
    const strict = <T>(value: T | undefined, what: string, ref: string): T => {
      if (value === undefined) throw new Error(`internal: unresolved ${what} ${ref} after validation`);
      return value;
    };
    return {
      id: index.id,
      accountIds: index.accountIds,
      groupIds: index.groupIds,
      vehicleIds: index.vehicleIds,
      driverIds: index.driverIds,
      tripIds: index.tripIds,
      resolveDriver: (ref) =>
        index.driverIds[strict(resolveDriverIndex(index, ref, '(internal)'), 'driver', ref)]!,
      resolveAccount: (ref) => strict(resolveAccount(index, ref, '(internal)'), 'account', ref),
      resolveGroup: (ref) =>
        index.groupIds[strict(resolveGroupIndex(index, ref, '(internal)'), 'group', ref)]!,
      resolveVehicle: (ref) =>
        index.vehicleIds[strict(resolveVehicleIndex(index, ref, '(internal)'), 'vehicle', ref)]!,
    };
  });
  return {
    organizations,
    productIds,
    logfetchPositions: catalogs.logfetchPositions,
    resolveProduct: (ref) => {
      const id = resolveProduct(ref, '(internal)');
      if (!id) throw new Error(`internal: unresolved product ${ref} after validation`);
      return id;
    },
  };
}

/** Each elementary cycle found by a depth-first walk over child -> parent edges, once. */
export function findCycles(parentsOf: number[][]): number[][] {
  const state = new Array<number>(parentsOf.length).fill(0); // 0 new, 1 on stack, 2 done
  const stack: number[] = [];
  const cycles: number[][] = [];
  const seenCycles = new Set<string>();
  const visit = (node: number) => {
    state[node] = 1;
    stack.push(node);
    for (const parent of parentsOf[node] ?? []) {
      if (state[parent] === 1) {
        const cycle = stack.slice(stack.indexOf(parent));
        const key = [...cycle].sort((a, b) => a - b).join(',');
        if (!seenCycles.has(key)) {
          seenCycles.add(key);
          cycles.push(cycle);
        }
      } else if (state[parent] === 0) {
        visit(parent);
      }
    }
    stack.pop();
    state[node] = 2;
  };
  for (let node = 0; node < parentsOf.length; node++) if (state[node] === 0) visit(node);
  return cycles;
}
