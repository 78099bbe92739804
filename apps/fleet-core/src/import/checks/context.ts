/**
 * What the dataset checks share: defensive readers of the raw input, the file's indexes (ids and
 * natural keys by organization) and the reference resolvers, which report an unknown or
 * ambiguous reference at its JSON path.
 */
export type Loose = Record<string, unknown>;
export const obj = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuidOf = (v: unknown): string | undefined => {
  const s = str(v);
  return s && UUID.test(s) ? s.toLowerCase() : undefined;
};
export const q = (s: string) => JSON.stringify(s);

export type Problem = (path: string, message: string) => void;

export function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const existing = map.get(key);
  if (existing) existing.push(value);
  else map.set(key, [value]);
}

/** Ids and natural keys of one organization of the file, by index. */
export interface OrgIndex {
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

/** Keys met so far in the whole file (first path of each), to report duplicates. */
export interface Seen {
  orgIds: Map<string, string>;
  accountIds: Map<string, string>;
  emails: Map<string, { path: string; o: number }>;
  groupIds: Map<string, string>;
  vehicleIds: Map<string, string>;
  vins: Map<string, string>;
  deviceIds: Map<string, string>;
  productIds: Map<string, string>;
  productNames: Map<string, string>;
  driverIds: Map<string, string>;
  tripIds: Map<string, string>;
}

export const emptySeen = (): Seen => ({
  orgIds: new Map(),
  accountIds: new Map(),
  emails: new Map(),
  groupIds: new Map(),
  vehicleIds: new Map(),
  vins: new Map(),
  deviceIds: new Map(),
  productIds: new Map(),
  productNames: new Map(),
  driverIds: new Map(),
  tripIds: new Map(),
});

/** Records `key` at `path`, or reports it as a duplicate of its first occurrence. */
export function unique(
  problem: Problem,
  map: Map<string, string>,
  key: string | undefined,
  path: string,
  what: string,
): void {
  if (key === undefined) return;
  const first = map.get(key);
  if (first !== undefined) problem(path, `duplicate ${what} ${q(key)} (also at ${first})`);
  else map.set(key, path);
}

/** Calls `fn` with each non-empty string of a reference list and its path. */
export const eachRef = (value: unknown, path: string, fn: (ref: string, path: string) => void) =>
  list(value).forEach((r, k) => {
    const s = str(r);
    if (s) fn(s, `${path}[${k}]`);
  });

/** Resolves references inside one organization (and products globally), reporting failures. */
export class Resolver {
  constructor(
    private readonly problem: Problem,
    private readonly seen: Seen,
    private readonly productByKey: Map<string, string>,
    private readonly dbProductByKey: Map<string, string>,
  ) {}

  product(ref: string, path: string): string | undefined {
    const id =
      this.productByKey.get(ref) ??
      this.dbProductByKey.get(ref) ??
      this.dbProductByKey.get(ref.toLowerCase());
    if (!id) this.problem(path, `unknown product ${q(ref)}`);
    return id;
  }

  account(index: OrgIndex, ref: string, path: string): string | undefined {
    const key = ref.toLowerCase();
    const i = index.accountById.get(key) ?? index.accountByEmail.get(key);
    if (i !== undefined) return index.accountIds[i];
    const elsewhere = this.seen.emails.get(key);
    if (elsewhere && elsewhere.o !== index.o)
      this.problem(path, `account ${q(ref)} belongs to another organization`);
    else this.problem(path, `unknown account ${q(ref)}`);
    return undefined;
  }

  group(index: OrgIndex, ref: string, path: string): number | undefined {
    const byId = index.groupById.get(ref.toLowerCase());
    if (byId !== undefined) return byId;
    const byLabel = index.groupByLabel.get(ref) ?? [];
    if (byLabel.length === 1) return byLabel[0];
    if (byLabel.length > 1)
      this.problem(
        path,
        `group label ${q(ref)} is ambiguous (${byLabel.length} groups have it): use the group's id`,
      );
    else this.problem(path, `unknown group ${q(ref)}`);
    return undefined;
  }

  vehicle(index: OrgIndex, ref: string, path: string): number | undefined {
    const byId = index.vehicleById.get(ref.toLowerCase());
    if (byId !== undefined) return byId;
    const matches =
      index.vehicleByVin.get(ref.toUpperCase()) ?? index.vehicleByPlate.get(ref.toUpperCase()) ?? [];
    if (matches.length === 1) return matches[0];
    if (matches.length > 1)
      this.problem(
        path,
        `vehicle ${q(ref)} is ambiguous (${matches.length} vehicles have this plate): use the id or VIN`,
      );
    else
      this.problem(
        path,
        `unknown vehicle ${q(ref)} (expected a vehicle id, VIN or plate of this organization)`,
      );
    return undefined;
  }

  driver(index: OrgIndex, ref: string, path: string): number | undefined {
    const byKey = index.driverById.get(ref.toLowerCase()) ?? index.driverByIdKey.get(ref);
    if (byKey !== undefined) return byKey;
    const byLabel = index.driverByLabel.get(ref) ?? [];
    if (byLabel.length === 1) return byLabel[0];
    if (byLabel.length > 1)
      this.problem(
        path,
        `driver label ${q(ref)} is ambiguous (${byLabel.length} drivers have it): use the id or idKey`,
      );
    else
      this.problem(
        path,
        `unknown driver ${q(ref)} (expected a driver id, idKey or label of this organization)`,
      );
    return undefined;
  }
}
