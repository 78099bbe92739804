/**
 * Pass 1 of the dataset checks: the ids every row gets (given, or new) and the natural keys of
 * each organization, and the duplicates inside the file.
 */
import { randomUUID } from 'node:crypto';
import {
  list,
  obj,
  push,
  str,
  unique,
  uuidOf,
  q,
  type Loose,
  type OrgIndex,
  type Problem,
  type Seen,
} from './context';

/** Products: a global catalog, listed at the top level or inside organizations. */
export function indexProducts(root: Loose, orgs: Loose[], seen: Seen, problem: Problem) {
  const productIds = new Map<string, string>();
  const productByKey = new Map<string, string>();
  const productLists: Array<[string, unknown[]]> = [['products', list(root.products)]];
  orgs.forEach((org, o) => productLists.push([`organizations[${o}].products`, list(org.products)]));
  for (const [base, products] of productLists) {
    products.map(obj).forEach((p, i) => {
      const path = `${base}[${i}]`;
      const id = uuidOf(p.id) ?? randomUUID();
      unique(problem, seen.productIds, uuidOf(p.id), `${path}.id`, 'product id');
      const name = str(p.name);
      unique(problem, seen.productNames, name, `${path}.name`, 'product name');
      productIds.set(path, id);
      if (name && !productByKey.has(name)) productByKey.set(name, id);
      productByKey.set(id, id);
    });
  }
  return { productIds, productByKey };
}

export function indexOrganization(org: Loose, o: number, seen: Seen, problem: Problem): OrgIndex {
  const path = `organizations[${o}]`;
  unique(problem, seen.orgIds, uuidOf(org.id), `${path}.id`, 'organization id');
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
  for (const step of [indexAccounts, indexGroups, indexVehicles, indexDevices, indexDrivers, indexTrips])
    step(org, index, seen, problem);
  return index;
}

type IndexStep = (org: Loose, index: OrgIndex, seen: Seen, problem: Problem) => void;

const indexAccounts: IndexStep = (org, index, seen, problem) =>
  list(org.accounts)
    .map(obj)
    .forEach((a, i) => {
      const p = `${index.path}.accounts[${i}]`;
      const id = uuidOf(a.id) ?? randomUUID();
      unique(problem, seen.accountIds, uuidOf(a.id), `${p}.id`, 'account id');
      index.accountIds.push(id);
      index.accountById.set(id, i);
      const email = str(a.email)?.toLowerCase();
      if (email) {
        const first = seen.emails.get(email);
        if (first) problem(`${p}.email`, `duplicate email ${q(email)} (also at ${first.path})`);
        else seen.emails.set(email, { path: `${p}.email`, o: index.o });
        if (!index.accountByEmail.has(email)) index.accountByEmail.set(email, i);
      }
    });

const indexGroups: IndexStep = (org, index, seen, problem) =>
  list(org.groups)
    .map(obj)
    .forEach((g, i) => {
      const p = `${index.path}.groups[${i}]`;
      const id = uuidOf(g.id) ?? randomUUID();
      unique(problem, seen.groupIds, uuidOf(g.id), `${p}.id`, 'group id');
      index.groupIds.push(id);
      index.groupById.set(id, i);
      const label = str(g.label) ?? `#${i}`;
      index.groupLabels.push(label);
      push(index.groupByLabel, label, i);
    });

const indexVehicles: IndexStep = (org, index, seen, problem) =>
  list(org.vehicles)
    .map(obj)
    .forEach((v, i) => {
      const p = `${index.path}.vehicles[${i}]`;
      const id = uuidOf(v.id) ?? randomUUID();
      unique(problem, seen.vehicleIds, uuidOf(v.id), `${p}.id`, 'vehicle id');
      index.vehicleIds.push(id);
      index.vehicleById.set(id, i);
      const vin = str(v.vin)?.toUpperCase();
      unique(problem, seen.vins, vin, `${p}.vin`, 'VIN');
      if (vin) push(index.vehicleByVin, vin, i);
      const plate = str(v.plate);
      if (plate) push(index.vehicleByPlate, plate.toUpperCase(), i);
    });

const indexDevices: IndexStep = (org, index, seen, problem) =>
  list(org.devices)
    .map(obj)
    .forEach((d, i) => {
      unique(problem, seen.deviceIds, str(d.id), `${index.path}.devices[${i}].id`, 'device id');
      const id = str(d.id);
      if (id) index.deviceIds.add(id);
    });

const indexDrivers: IndexStep = (org, index, seen, problem) => {
  const idKeys = new Map<string, string>();
  list(org.drivers)
    .map(obj)
    .forEach((d, i) => {
      const p = `${index.path}.drivers[${i}]`;
      const id = uuidOf(d.id) ?? randomUUID();
      unique(problem, seen.driverIds, uuidOf(d.id), `${p}.id`, 'driver id');
      index.driverIds.push(id);
      index.driverById.set(id, i);
      const idKey = str(d.idKey);
      unique(problem, idKeys, idKey, `${p}.idKey`, 'driver idKey');
      if (idKey && !index.driverByIdKey.has(idKey)) index.driverByIdKey.set(idKey, i);
      const label = str(d.label);
      if (label) push(index.driverByLabel, label, i);
    });
};

const indexTrips: IndexStep = (org, index, seen, problem) =>
  list(org.trips)
    .map(obj)
    .forEach((t, i) => {
      unique(problem, seen.tripIds, uuidOf(t.id), `${index.path}.trips[${i}].id`, 'trip id');
      index.tripIds.push(uuidOf(t.id) ?? randomUUID());
    });
