/**
 * Deterministic demo data: two organizations (Acme Logistics, Globex Transport) with accounts that
 * can sign in, a group hierarchy (company -> regions -> depots -> teams), products, devices,
 * vehicles and device-vehicle sessions.
 *
 * Rules:
 * - Deterministic: every id is a name-based UUID (v5) of the entity's natural name, every random
 *   choice comes from a mulberry32 PRNG seeded per organization, and every timestamp is an offset
 *   from `options.now` (default: the start of the current UTC day). Same scale + same `now` gives
 *   identical rows.
 * - `scale` multiplies regions, depots, accounts, devices and vehicles (scale 100 is ~7500 devices).
 * - All seeded accounts share DEMO_PASSWORD. fleet-core never writes the SSO: the seed returns every
 *   account's sign-in (`signIns`), and the orchestrator creates them at the SSO (hashing the shared
 *   password once), or `onSignIns` writes them inside the seed's transaction.
 * - Refuses to run on a database that already holds organizations; all rows are written in one
 *   transaction (batches of 1000 rows per statement), then the group closure is computed.
 */
import type { Knex } from 'knex';
import { SingleBar, Presets } from 'cli-progress';
import { refreshGroupClosure } from '@fleetgraph/visibility';
import {
  ACME_REGIONS,
  COLORS,
  FRENCH_FIRST,
  FRENCH_LAST,
  GERMAN_FIRST,
  GERMAN_LAST,
  GLOBEX_REGIONS,
  PRODUCTS,
  TEAM_NAMES,
  VEHICLE_MODELS,
  slug,
  type CityInfo,
  type ProductSpec,
} from './catalog';
import {
  COUNTED_TABLES,
  emptyCounts,
  type DeviceStatus,
  type HierarchyLevel,
  type Language,
  type TableCounts,
} from './enums';
import { Rng, makeImei, makeVin, uuidV5 } from './ids';
import { countRows, insertInBatches } from './write';
import { seedServices } from './services';
import { seedActivity, type DeviceActivity } from './activity';

export const DEMO_EMAIL = 'demo@fleetgraph.dev';
export const DEMO_PASSWORD = 'fleetgraph-demo';
export const DEMO_FULL_NAME = 'Dana Demo';

export interface SeedOptions {
  /** Multiplies regions, depots, accounts, devices and vehicles (default 1). */
  scale?: number;
  /** Shows a progress bar on stderr (on a terminal; a line every 10 s otherwise). */
  progress?: boolean;
  log?: (line: string) => void;
  /** The reference time every timestamp is derived from (default: start of the current UTC day). */
  now?: Date;
  /**
   * Trips generated per connected device with a vehicle (default 125; fewer when the device's
   * first connection comes first). Scale 1334 with the default gives ~100k devices and ~10M trips.
   */
  tripsPerDevice?: number;
  /**
   * Called inside the seed's transaction with every seeded account's sign-in, so a caller that may
   * write the SSO (tools/seed) creates them atomically with the accounts.
   */
  onSignIns?: (trx: Knex.Transaction, signIns: SeedAccount[]) => Promise<number>;
}

/** A seeded account's sign-in (all share DEMO_PASSWORD); the SSO user has the account's id. */
export interface SeedAccount {
  uid: string;
  email: string;
  password: string;
  fullName: string;
  /** lower-case language code (en, fr) */
  language: string;
  createdAt: Date;
}

export interface SeedLogin {
  email: string;
  password: string;
  organization: string;
  memberOf: string[];
}

export interface SeedSummary extends TableCounts {
  scale: number;
  durationMs: number;
  /** Time spent generating and writing trips and device data, and the trip rate over it. */
  tripsDurationMs: number;
  tripsPerSecond: number;
  /** A few accounts worth signing in with (all share DEMO_PASSWORD). */
  logins: SeedLogin[];
  /** Every seeded account's sign-in, for the SSO. */
  signIns: SeedAccount[];
  /** SSO users written by `onAccounts` (0 without it). */
  users: number;
}

export const MAX_SCALE = 2000;
export const DEFAULT_TRIPS_PER_DEVICE = 125;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const toMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

type Row = Record<string, unknown>;

interface Rows {
  organizations: Row[];
  accounts: Row[];
  products: Row[];
  groups: Row[];
  groupParents: Row[];
  groupAccounts: Row[];
  vehicles: Row[];
  devices: Row[];
  groupDevices: Row[];
  groupVehicles: Row[];
  deviceVehicleSessions: Row[];
  drivers: Row[];
  groupDrivers: Row[];
  driverAuxiliaryDevices: Row[];
  driverVehicleSessions: Row[];
}

interface OrgSpec {
  key: string;
  name: string;
  domain: string;
  language: Language;
  countryCode: string;
  timeZone: string;
  phonePrefix: string;
  plateStyle: 'DE' | 'FR';
  regions: ReadonlyArray<{ label: string; cities: readonly CityInfo[] }>;
  regionsPerScale: number;
  devicesPerScale: number;
  teams: boolean;
  unassigned: boolean;
  evPool: boolean;
  rootAccount: { email: string; fullName: string; shortName: string };
  /** Fixed names for the first regions' dispatchers (others are generated). */
  dispatchers: Record<string, string>;
  names: { first: readonly string[]; last: readonly string[] };
}

const ACME: OrgSpec = {
  key: 'acme',
  name: 'Acme Logistics',
  domain: 'acme.example',
  language: 'EN',
  countryCode: 'DE',
  timeZone: 'Europe/Berlin',
  phonePrefix: '+49151',
  plateStyle: 'DE',
  regions: ACME_REGIONS,
  regionsPerScale: 2,
  devicesPerScale: 60,
  teams: true,
  unassigned: true,
  evPool: true,
  rootAccount: { email: DEMO_EMAIL, fullName: DEMO_FULL_NAME, shortName: 'Dana' },
  dispatchers: { North: 'Jonas Becker', South: 'Lena Wagner' },
  names: { first: GERMAN_FIRST, last: GERMAN_LAST },
};

const GLOBEX: OrgSpec = {
  key: 'globex',
  name: 'Globex Transport',
  domain: 'globex.example',
  language: 'FR',
  countryCode: 'FR',
  timeZone: 'Europe/Paris',
  phonePrefix: '+33612',
  plateStyle: 'FR',
  regions: GLOBEX_REGIONS,
  regionsPerScale: 1,
  devicesPerScale: 15,
  teams: false,
  unassigned: false,
  evPool: false,
  rootAccount: { email: 'ops@globex.example', fullName: 'Camille Laurent', shortName: 'Camille' },
  dispatchers: {},
  names: { first: FRENCH_FIRST, last: FRENCH_LAST },
};

export async function isSeeded(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: Array<{ seeded: boolean }> }>(
    'select exists (select 1 from fleet.organizations) as seeded',
  );
  return Boolean(rows[0]?.seeded);
}

export async function seedDemo(knex: Knex, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = Date.now();
  const { scale, tripsPerDevice } = checkedOptions(options);
  const now = options.now ?? startOfUtcDay(new Date());
  const log = options.log ?? (() => {});

  const { rows, activity, signIns } = generate(scale, now.getTime());
  const tables = Object.keys(rows) as Array<keyof Rows>;
  const total = tables.reduce((sum, table) => sum + rows[table].length, 0);
  const bar = options.progress
    ? progressBar('seeding [{bar}] {percentage}% | {value}/{total} rows | {table}')
    : undefined;
  bar?.start(total, 0, { table: '' });

  const counts = emptyCounts();
  let users = 0;
  let tripsDurationMs = 0;
  try {
    await knex.transaction(async (trx) => {
      // Two concurrent first starts must not both seed: the second waits here, then sees the rows.
      await trx.raw('lock table fleet.organizations in share row exclusive mode');
      if (await isSeeded(trx)) {
        throw new Error(
          'refusing to seed: fleet.organizations is not empty (the database already holds data; seed an empty database)',
        );
      }
      await writeCore(trx, rows, counts, bar);
      if (options.onSignIns) users = await options.onSignIns(trx, signIns);
      await seedServices(trx, { now: now.getTime() });
      bar?.stop();
      const trips = await writeTrips(trx, activity, tripsPerDevice, options.progress ?? false);
      Object.assign(counts, trips.counts);
      tripsDurationMs = trips.durationMs;
    });
  } finally {
    bar?.stop();
  }

  const summary: SeedSummary = {
    ...counts,
    users,
    signIns,
    scale,
    durationMs: Date.now() - started,
    tripsDurationMs,
    tripsPerSecond: tripsDurationMs > 0 ? Math.round(counts.trips / (tripsDurationMs / 1000)) : 0,
    logins: demoLogins(),
  };
  log(
    `seeded ${counts.organizations} organizations, ${counts.accounts} accounts, ${counts.groups} groups, ` +
      `${counts.devices} devices, ${counts.vehicles} vehicles, ${counts.drivers} drivers, ${counts.trips} trips ` +
      `in ${summary.durationMs} ms (trips: ${summary.tripsPerSecond}/s)`,
  );
  return summary;
}

function checkedOptions(options: SeedOptions): { scale: number; tripsPerDevice: number } {
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1 || scale > MAX_SCALE) {
    throw new Error(`seed scale must be an integer between 1 and ${MAX_SCALE} (got ${scale})`);
  }
  const tripsPerDevice = options.tripsPerDevice ?? DEFAULT_TRIPS_PER_DEVICE;
  if (!Number.isInteger(tripsPerDevice) || tripsPerDevice < 0 || tripsPerDevice > 10_000) {
    throw new Error(`trips per device must be an integer between 0 and 10000 (got ${tripsPerDevice})`);
  }
  return { scale, tripsPerDevice };
}

/** A progress bar on stderr; not on a terminal (a log, CI), one line every 10 s instead of a redrawn bar. */
function progressBar(format: string): SingleBar {
  return new SingleBar(
    { stream: process.stderr, format, hideCursor: true, noTTYOutput: true, notTTYSchedule: 10_000 },
    Presets.shades_classic,
  );
}

/** The generated core rows in foreign-key order, then the group closure of each organization. */
async function writeCore(trx: Knex.Transaction, rows: Rows, counts: TableCounts, bar?: SingleBar) {
  // Products are a global catalog: an import may already have created some of them.
  const products = rows.products;
  rows.products = [];
  const productIds = await upsertProducts(trx, products);
  for (const device of rows.devices) device.product_id = productIds.get(device.product_id as string);
  counts.products = products.length;
  bar?.increment(products.length, { table: 'fleet.products' });

  for (const table of Object.keys(rows) as Array<keyof Rows>) {
    if (table === 'products') continue;
    const name = COUNTED_TABLES[table];
    counts[table] = await insertInBatches(trx, name, rows[table], (n) => bar?.increment(n, { table: name }));
  }
  for (const org of rows.organizations) await refreshGroupClosure(trx, org.id as string);
  counts.groupClosure = await countRows(trx, 'fleet.group_closure');
}

/** What the devices recorded, streamed (10M trips never sit in memory), with a trip-rate bar. */
async function writeTrips(
  trx: Knex.Transaction,
  activity: DeviceActivity[],
  tripsPerDevice: number,
  progress: boolean,
) {
  const expected = activity.length * tripsPerDevice;
  const tripBar = progress
    ? progressBar(
        'trips   [{bar}] {percentage}% | {value}/{total} trips | {rate} trips/s | ETA {eta_formatted}',
      )
    : undefined;
  const tripsStarted = Date.now();
  let written = 0;
  tripBar?.start(expected, 0, { rate: 0 });
  try {
    const counts = await seedActivity(trx, activity, {
      tripsPerDevice,
      onTrips: (n) => {
        written += n;
        const seconds = Math.max(0.001, (Date.now() - tripsStarted) / 1000);
        tripBar?.update(Math.min(written, expected), { rate: Math.round(written / seconds) });
      },
    });
    return { counts, durationMs: Date.now() - tripsStarted };
  } finally {
    tripBar?.stop();
  }
}

/** A few accounts worth signing in with (all share DEMO_PASSWORD). */
function demoLogins(): SeedLogin[] {
  return [
    { email: DEMO_EMAIL, password: DEMO_PASSWORD, organization: ACME.name, memberOf: [ACME.name] },
    {
      email: 'dispatcher.north@acme.example',
      password: DEMO_PASSWORD,
      organization: ACME.name,
      memberOf: ['North'],
    },
    {
      email: GLOBEX.rootAccount.email,
      password: DEMO_PASSWORD,
      organization: GLOBEX.name,
      memberOf: [GLOBEX.name],
    },
  ];
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** Inserts the catalog products that do not exist yet; returns name -> id for all of them. */
async function upsertProducts(trx: Knex.Transaction, products: Row[]): Promise<Map<string, string>> {
  await trx('fleet.products').insert(products).onConflict('name').ignore();
  const existing = await trx('fleet.products')
    .select('id', 'name')
    .whereIn(
      'name',
      products.map((p) => p.name as string),
    );
  return new Map(existing.map((p: { id: string; name: string }) => [p.name, p.id]));
}

// ---------------------------------------------------------------------------------------------
// Generation (pure: no I/O)

interface GroupRef {
  id: string;
  label: string;
}

interface Slot {
  group: GroupRef;
  owner: string;
  city: CityInfo;
  team?: GroupRef;
  teamOwner?: string;
}

function generate(
  scale: number,
  now: number,
): { rows: Rows; activity: DeviceActivity[]; signIns: SeedAccount[] } {
  const rows: Rows = {
    organizations: [],
    accounts: [],
    products: [],
    groups: [],
    groupParents: [],
    groupAccounts: [],
    vehicles: [],
    devices: [],
    groupDevices: [],
    groupVehicles: [],
    deviceVehicleSessions: [],
    drivers: [],
    groupDrivers: [],
    driverAuxiliaryDevices: [],
    driverVehicleSessions: [],
  };
  const activity: DeviceActivity[] = [];
  const signIns: SeedAccount[] = [];
  for (const product of PRODUCTS) {
    rows.products.push({
      id: uuidV5(`product:${product.name}`),
      name: product.name,
      network: product.network,
      market: product.market,
      has_wifi: product.hasWifi,
      has_bluetooth: product.hasBluetooth,
    });
  }
  generateOrganization(rows, activity, signIns, ACME, scale, now, 100_000);
  generateOrganization(rows, activity, signIns, GLOBEX, scale, now, 600_000);
  return { rows, activity, signIns };
}

/** One organization being generated: its PRNG (draws happen in a fixed order: the order is the demo) and row helpers. */
interface OrgGen {
  rows: Rows;
  activity: DeviceActivity[];
  signIns: SeedAccount[];
  spec: OrgSpec;
  scale: number;
  now: number;
  imeiBase: number;
  rng: Rng;
  orgId: string;
  orgCreated: number;
  account(email: string, fullName: string, shortName: string, groups: GroupRef[]): string;
  personName(): string;
  group(key: string, label: string, level: HierarchyLevel, tags: string[], parents: GroupRef[]): GroupRef;
  setOwner(g: GroupRef, ownerId: string): void;
}

interface Hierarchy {
  root: GroupRef;
  rootOwner: string;
  slots: Slot[];
  regionGroups: GroupRef[];
  cityUse: Map<string, number>;
  unassigned: GroupRef | undefined;
  evPool: GroupRef | undefined;
}

type Placement = { group: GroupRef; owner: string; spare: boolean; city: CityInfo };

interface Fleet {
  count: number;
  vehicleIds: string[];
  placements: Placement[];
  vehicleFacts: Array<{ fuel: string; odometerKm: number }>;
}

type DriverFor = (
  i: number,
  placement: Placement,
  vehicleId: string | null,
  since: number,
  first: number,
) => string | null;

function generateOrganization(
  rows: Rows,
  activity: DeviceActivity[],
  signIns: SeedAccount[],
  spec: OrgSpec,
  scale: number,
  now: number,
  imeiBase: number,
): void {
  const rng = new Rng(`fleetgraph-seed:${spec.key}:${scale}`);
  const orgId = uuidV5(`organization:${spec.key}`);
  const orgCreated = now - 1200 * DAY;
  rows.organizations.push({ id: orgId, name: spec.name, created_at: new Date(orgCreated) });

  const emails = new Set<string>();
  const account = (email: string, fullName: string, shortName: string, groups: GroupRef[]): string => {
    if (emails.has(email)) throw new Error(`seed generated a duplicate email ${email}`);
    emails.add(email);
    const id = uuidV5(`account:${email}`);
    const created = orgCreated + rng.int(0, 900) * DAY + rng.int(0, 23) * HOUR;
    const signedIn = rng.chance(0.8) ? new Date(now - rng.int(10, 60 * 24 * 20) * MINUTE) : null;
    rows.accounts.push({
      id,
      organization_id: orgId,
      email,
      phone: `${spec.phonePrefix}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`,
      full_name: fullName,
      short_name: shortName,
      company_name: spec.name,
      country_code: spec.countryCode,
      language: spec.language,
      time_zone: spec.timeZone,
      created_at: new Date(created),
      updated_at: new Date(created + rng.int(0, 30) * DAY),
      last_sign_in_at: signedIn,
      confirmed_at: new Date(created + rng.int(5, 240) * MINUTE),
    });
    signIns.push({
      uid: id,
      email,
      password: DEMO_PASSWORD,
      fullName,
      language: spec.language.toLowerCase(),
      createdAt: new Date(created),
    });
    for (const group of groups) rows.groupAccounts.push({ group_id: group.id, account_id: id });
    return id;
  };
  const personName = () => `${rng.pick(spec.names.first)} ${rng.pick(spec.names.last)}`;

  const groupRows = new Map<string, Row>();
  const group = (
    key: string,
    label: string,
    level: HierarchyLevel,
    tags: string[],
    parents: GroupRef[],
  ): GroupRef => {
    const id = uuidV5(`group:${spec.key}:${key}`);
    const created = orgCreated + rng.int(0, 300) * DAY;
    const row: Row = {
      id,
      organization_id: orgId,
      label,
      tags,
      hierarchy_level: level,
      owner_id: null,
      created_at: new Date(created),
      updated_at: new Date(created + rng.int(0, 200) * DAY),
    };
    rows.groups.push(row);
    groupRows.set(id, row);
    for (const parent of parents) rows.groupParents.push({ group_id: id, parent_id: parent.id });
    return { id, label };
  };
  const setOwner = (g: GroupRef, ownerId: string) => {
    groupRows.get(g.id)!.owner_id = ownerId;
  };
  const g: OrgGen = {
    rows,
    activity,
    signIns,
    spec,
    scale,
    now,
    imeiBase,
    rng,
    orgId,
    orgCreated,
    account,
    personName,
    group,
    setOwner,
  };
  const hierarchy = generateHierarchy(g);
  const fleet = generateVehicles(g, hierarchy);
  const driverFor = driverGenerator(g, hierarchy, fleet);
  // Devices, with their connection history and vehicle sessions.
  const productWeights = PRODUCTS.map((p) => [p, p.weight] as const);
  for (let i = 0; i < fleet.count; i++) generateDevice(g, fleet, driverFor, productWeights, i);
  generateFormerDrivers(g, fleet);
}

/** Company -> regions -> depots (-> teams), plus an "Unassigned" pool and an EV pool, with their owners. */
function generateHierarchy(g: OrgGen): Hierarchy {
  const { spec, scale, account, personName, group, setOwner } = g;
  // Hierarchy: company -> regions -> depots (-> teams), plus an "Unassigned" pool and an EV pool.
  const root = group('root', spec.name, 'COMPANY', ['company', 'headquarters'], []);
  const rootOwner = account(spec.rootAccount.email, spec.rootAccount.fullName, spec.rootAccount.shortName, [
    root,
  ]);
  setOwner(root, rootOwner);

  const slots: Slot[] = [];
  const regionGroups: GroupRef[] = [];
  const cityUse = new Map<string, number>();
  const h: Hierarchy = {
    root,
    rootOwner,
    slots,
    regionGroups,
    cityUse,
    unassigned: undefined,
    evPool: undefined,
  };
  for (let r = 0; r < spec.regionsPerScale * scale; r++) generateRegion(g, h, r);
  const unassigned = spec.unassigned
    ? group('unassigned', 'Unassigned', 'UNASSIGNED', ['spare'], [root])
    : undefined;
  // A pool with two parents (the first two regions): the hierarchy is a DAG, not only a tree.
  const evPool = spec.evPool
    ? group('ev-pool', 'EV Pool', 'TEAM', ['team', 'electric'], regionGroups.slice(0, 2))
    : undefined;
  if (evPool) {
    const analyst = account(`ev.analyst@${spec.domain}`, personName(), 'EV', [evPool]);
    setOwner(evPool, analyst);
  }
  return { ...h, unassigned, evPool };
}

/** Region r with its dispatcher, depots (with managers) and teams. */
function generateRegion(g: OrgGen, h: Hierarchy, r: number): void {
  const { spec, account, personName, group, setOwner } = g;
  const { root, slots, regionGroups, cityUse } = h;
  const base = spec.regions[r % spec.regions.length]!;
  const round = Math.floor(r / spec.regions.length);
  const regionLabel = round === 0 ? base.label : `${base.label} ${round + 1}`;
  const region = group(`region:${regionLabel}`, regionLabel, 'REGION', ['region', slug(regionLabel)], [root]);
  regionGroups.push(region);
  const dispatcherName = spec.dispatchers[regionLabel] ?? personName();
  const dispatcher = account(
    `dispatcher.${slug(regionLabel)}@${spec.domain}`,
    dispatcherName,
    dispatcherName.split(' ')[0]!,
    [region],
  );
  setOwner(region, dispatcher);

  for (const city of base.cities) {
    const used = (cityUse.get(city.name) ?? 0) + 1;
    cityUse.set(city.name, used);
    const cityLabel = used === 1 ? city.name : `${city.name} ${used}`;
    const depotLabel = spec.plateStyle === 'FR' ? `${cityLabel} Hub` : `${cityLabel} Depot`;
    const depot = group(`depot:${cityLabel}`, depotLabel, 'DEPOT', ['depot', slug(city.name)], [region]);
    const managerName = personName();
    const manager = account(
      `manager.${slug(cityLabel)}@${spec.domain}`,
      managerName,
      managerName.split(' ')[0]!,
      [depot],
    );
    setOwner(depot, manager);
    const slot: Slot = { group: depot, owner: manager, city };
    if (spec.teams && slots.length % 3 === 0) {
      const teamName = TEAM_NAMES[(slots.length / 3) % TEAM_NAMES.length]!;
      const team = group(
        `team:${cityLabel}:${teamName}`,
        `${cityLabel} ${teamName}`,
        'TEAM',
        ['team', slug(teamName)],
        [depot],
      );
      const leadName = personName();
      slot.team = team;
      slot.teamOwner = account(
        `${slug(teamName)}.${slug(cityLabel)}@${spec.domain}`,
        leadName,
        leadName.split(' ')[0]!,
        [team],
      );
      setOwner(team, slot.teamOwner);
    }
    slots.push(slot);
  }
}

/** Vehicles: vehicle i sits with device i (same depot or team). */
function generateVehicles(g: OrgGen, h: Hierarchy): Fleet {
  const { rows, spec, scale, now, imeiBase, rng, orgId } = g;
  const { slots, unassigned, rootOwner, evPool } = h;
  const count = spec.devicesPerScale * scale;
  const plates = new Set<string>();
  const vehicleIds: string[] = [];
  const placements: Array<{ group: GroupRef; owner: string; spare: boolean; city: CityInfo }> = [];
  const vehicleFacts: Array<{ fuel: string; odometerKm: number }> = [];
  for (let i = 0; i < count; i++) {
    const slot = slots[i % slots.length]!;
    const spare = unassigned !== undefined && i % 20 === 19;
    const inTeam = !spare && slot.team !== undefined && rng.chance(0.35);
    const deviceGroup = spare ? unassigned! : inTeam ? slot.team! : slot.group;
    const owner = spare ? rootOwner : inTeam ? slot.teamOwner! : slot.owner;
    placements.push({ group: deviceGroup, owner, spare, city: slot.city });

    const model = rng.weighted(VEHICLE_MODELS.map((m) => [m, m.weight] as const));
    const year = rng.int(
      model.years[0],
      Math.max(model.years[0], Math.min(model.years[1], new Date(now).getUTCFullYear())),
    );
    const ageYears = Math.max(0.3, new Date(now).getUTCFullYear() - year + rng.next());
    const vehicleId = uuidV5(`vehicle:${spec.key}:${i}`);
    vehicleIds.push(vehicleId);
    const created = now - rng.int(30, 1100) * DAY;
    const odometerKm = Math.round(ageYears * rng.int(model.yearlyKm[0], model.yearlyKm[1]));
    vehicleFacts.push({ fuel: model.fuel, odometerKm });
    const vehicleType = vehicleTypeOf(model.model);
    rows.vehicles.push({
      id: vehicleId,
      organization_id: orgId,
      vin: makeVin(model.wmi, model.descriptor, year, model.plant, (imeiBase + i) % 1_000_000),
      plate: uniquePlate(rng, spec.plateStyle, slot.city, plates),
      make: model.make,
      model: model.model,
      model_year: year,
      fuel_type: model.fuel,
      color: rng.pick(COLORS),
      odometer_km: odometerKm,
      odometer_updated_at: new Date(now - (i % 48) * HOUR),
      label: `${vehicleType === 'HEAVY_TRUCK' ? 'Truck' : vehicleType === 'CAR' ? 'Car' : 'Van'} ${i + 1}`,
      vehicle_type: vehicleType,
      registration_country: spec.countryCode,
      fuel_tank_capacity_l: model.fuel === 'ELECTRIC' ? null : TANK_LITRES[vehicleType],
      battery_capacity_kwh: model.fuel === 'ELECTRIC' ? 75 : model.fuel === 'PLUGIN_HYBRID' ? 13.8 : null,
      created_at: new Date(created),
      updated_at: new Date(now - rng.int(0, 29) * DAY),
    });
    rows.groupVehicles.push({ group_id: spare ? slot.group.id : deviceGroup.id, vehicle_id: vehicleId });
    if (evPool && (model.fuel === 'ELECTRIC' || model.fuel === 'PLUGIN_HYBRID')) {
      rows.groupVehicles.push({ group_id: evPool.id, vehicle_id: vehicleId });
    }
  }
  return { count, vehicleIds, placements, vehicleFacts };
}

/** The driver of vehicle i (or none): one PRNG of its own, so the other rows keep their values. */
function driverGenerator(g: OrgGen, h: Hierarchy, fleet: Fleet): DriverFor {
  const { rows, spec, scale, now, imeiBase, orgId } = g;
  const { rootOwner } = h;
  const { vehicleIds } = fleet;
  // Drivers: most connected vehicles have one, placed with the vehicle, with the group's owner as
  // contact, a badge, phone or key fob, and a session in the vehicle. The company owner's account
  // is the first driver's own profile (so `driver` without id answers for the demo login).
  const driverRng = new Rng(`fleetgraph-seed:${spec.key}:${scale}:drivers`);
  let hasDriver = false;
  return (
    i: number,
    placement: Placement,
    vehicleId: string | null,
    since: number,
    first: number,
  ): string | null => {
    if (placement.spare || !driverRng.chance(0.85)) return null;
    const id = uuidV5(`driver:${spec.key}:${i}`);
    const firstDriver = !hasDriver;
    hasDriver = true;
    const active = vehicleId !== null || driverRng.chance(0.7);
    const created = first - driverRng.int(1, 30) * DAY;
    rows.drivers.push({
      id,
      organization_id: orgId,
      label: `${driverRng.pick(spec.names.first)} ${driverRng.pick(spec.names.last)}`,
      id_key: driverRng.chance(0.9) ? `${spec.key.toUpperCase()}-D${String(i + 1).padStart(6, '0')}` : null,
      user_profile_id: firstDriver ? rootOwner : null,
      user_contact_id: placement.owner,
      current_vehicle_id: active ? vehicleId : null,
      default_vehicle_id: vehicleIds[i],
      active,
      created_at: new Date(created),
      updated_at: new Date(Math.max(created, now - driverRng.int(0, 60) * DAY)),
    });
    rows.groupDrivers.push({ group_id: placement.group.id, driver_id: id });
    if (driverRng.chance(0.6)) {
      rows.driverAuxiliaryDevices.push({
        id: uuidV5(`driver-aux:${spec.key}:${i}:badge`),
        driver_id: id,
        kind: 'BADGE',
        serial_number: `BDG-${spec.key.toUpperCase()}-${String(i + 1).padStart(7, '0')}`,
      });
    }
    if (driverRng.chance(0.25)) {
      rows.driverAuxiliaryDevices.push({
        id: uuidV5(`driver-aux:${spec.key}:${i}:phone`),
        driver_id: id,
        kind: 'PHONE',
        mac_address_hash: uuidV5(`mac:${spec.key}:${i}`).replace(/-/g, ''),
      });
    }
    if (driverRng.chance(0.3)) {
      rows.driverAuxiliaryDevices.push({
        id: uuidV5(`driver-aux:${spec.key}:${i}:fob`),
        driver_id: id,
        kind: 'KEY_FOB',
        id_key: `FOB-${(imeiBase + i).toString(16).toUpperCase()}`,
      });
    }
    if (active && vehicleId) {
      rows.driverVehicleSessions.push({
        id: uuidV5(`driver-session:${spec.key}:${i}:current`),
        driver_id: id,
        vehicle_id: vehicleId,
        started_at: new Date(since),
        ended_at: null,
      });
    }
    if (driverRng.chance(0.4)) {
      const start = toMinute(first + driverRng.int(0, 20) * DAY);
      rows.driverVehicleSessions.push({
        id: uuidV5(`driver-session:${spec.key}:${i}:past`),
        driver_id: id,
        vehicle_id: vehicleIds[driverRng.int(0, vehicleIds.length - 1)],
        started_at: new Date(start),
        ended_at: new Date(start + driverRng.int(2, 10) * HOUR),
      });
    }
    return id;
  };
}

/** Device i: its row and group, and when it connected, its history, driver, sessions and activity. */
function generateDevice(
  g: OrgGen,
  fleet: Fleet,
  driverFor: DriverFor,
  productWeights: ReadonlyArray<readonly [ProductSpec, number]>,
  i: number,
): void {
  const { rows, activity, spec, now, imeiBase, rng, orgId } = g;
  const { placements, vehicleIds, vehicleFacts } = fleet;
  const { group: deviceGroup, owner, spare } = placements[i]!;
  const product: ProductSpec = rng.weighted(productWeights);
  const imei = makeImei(product.tac, imeiBase + i);
  const status: DeviceStatus = spare
    ? 'NEVER_CONNECTED'
    : rng.weighted([
        ['CONNECTED', 50],
        ['SLEEPING', 20],
        ['DISCONNECTED', 22],
        ['NEVER_CONNECTED', 8],
      ] as const);
  const created = status === 'NEVER_CONNECTED' ? now - rng.int(1, 60) * DAY : now - rng.int(60, 1000) * DAY;
  const device: Row = {
    id: imei,
    organization_id: orgId,
    active_account: spec.key,
    device_type: product.deviceType,
    serial_number: `${product.serialPrefix}-${String(imeiBase + i).padStart(8, '0')}`,
    onboarded: status === 'NEVER_CONNECTED' ? rng.chance(0.2) : rng.chance(0.92),
    owner_id: owner,
    product_id: product.name, // replaced by the product id at insert time
    current_vehicle_id: null,
    status,
    first_connection_at: null,
    last_connection_at: null,
    last_disconnection_at: null,
    last_activity_at: null,
    last_connection_reason: null,
    last_disconnection_reason: null,
    created_at: new Date(created),
    updated_at: new Date(created),
  };
  rows.devices.push(device);
  rows.groupDevices.push({ group_id: deviceGroup.id, device_id: imei });
  if (status === 'NEVER_CONNECTED') return;
  const { first, lastConnection, lastDisconnection, lastActivity } = connectDevice(
    g,
    device,
    status,
    created,
  );
  // History: 1-3 sessions; the open one (ended_at null) is the current vehicle.
  const linked = !rng.chance(0.07);
  const sessionCount = rng.int(1, 3);
  const historyEnd = linked
    ? toMinute(first + (lastConnection - first) * (0.4 + 0.55 * rng.next()))
    : lastDisconnection;
  const closed = linked ? sessionCount - 1 : sessionCount;
  const span = (historyEnd - first) / Math.max(1, closed);
  for (let s = 0; s < closed; s++) {
    const start = toMinute(first + span * s);
    const end = Math.max(start + HOUR, toMinute(first + span * (s + 1)) - rng.int(1, 48) * HOUR);
    const otherVehicle = vehicleIds[rng.int(0, vehicleIds.length - 1)]!;
    rows.deviceVehicleSessions.push({
      id: uuidV5(`session:${imei}:${s}`),
      device_id: imei,
      vehicle_id: otherVehicle,
      started_at: new Date(start),
      ended_at: new Date(end),
    });
  }
  const driverId = driverFor(i, placements[i]!, linked ? vehicleIds[i]! : null, historyEnd, first);
  if (linked) {
    activity.push({
      deviceId: imei,
      vehicleId: vehicleIds[i]!,
      driverId,
      city: placements[i]!.city.name,
      fuelType: vehicleFacts[i]!.fuel,
      firstConnectionAt: historyEnd,
      lastActivityAt: lastActivity,
      odometerKm: vehicleFacts[i]!.odometerKm,
    });
    device.current_vehicle_id = vehicleIds[i];
    rows.deviceVehicleSessions.push({
      id: uuidV5(`session:${imei}:${closed}`),
      device_id: imei,
      vehicle_id: vehicleIds[i],
      started_at: new Date(historyEnd),
      ended_at: null,
    });
  }
}

/** The connection facts of a device that connected, by status. */
function connectDevice(g: OrgGen, device: Row, status: DeviceStatus, created: number) {
  const { now, rng } = g;
  const first = created + rng.int(1, 14) * DAY;
  let lastConnection: number;
  let lastDisconnection: number;
  let lastActivity: number;
  if (status === 'CONNECTED') {
    lastConnection = now - rng.int(5, 600) * MINUTE;
    lastDisconnection = lastConnection - rng.int(10, 60 * 24) * MINUTE;
    lastActivity = now - rng.int(0, 4) * MINUTE;
    device.last_disconnection_reason = rng.weighted([
      ['SLEEP', 50],
      ['NETWORK_LOSS', 25],
      ['POWER_LOSS', 15],
      ['UNKNOWN_SERVER_REASON', 10],
    ] as const);
  } else if (status === 'SLEEPING') {
    lastDisconnection = now - rng.int(10, 60 * 20) * MINUTE;
    lastConnection = lastDisconnection - rng.int(20, 600) * MINUTE;
    lastActivity = lastDisconnection;
    device.last_disconnection_reason = 'SLEEP';
  } else {
    lastDisconnection = now - rng.int(60 * 24, 60 * 24 * 30) * MINUTE;
    lastConnection = lastDisconnection - rng.int(30, 900) * MINUTE;
    lastActivity = lastDisconnection - rng.int(0, 5) * MINUTE;
    device.last_disconnection_reason = rng.weighted([
      ['POWER_LOSS', 40],
      ['NETWORK_LOSS', 35],
      ['UNKNOWN_SERVER_REASON', 25],
    ] as const);
  }
  device.last_connection_reason = rng.weighted([
    ['WAKE_UP', 50],
    ['COLD_BOOT', 20],
    ['NETWORK_RECOVERY', 20],
    ['WARM_BOOT', 10],
  ] as const);
  device.first_connection_at = new Date(first);
  device.last_connection_at = new Date(lastConnection);
  device.last_disconnection_at = new Date(lastDisconnection);
  device.last_activity_at = new Date(lastActivity);
  device.updated_at = new Date(lastActivity);
  return { first, lastConnection, lastDisconnection, lastActivity };
}

/** Drivers who left: inactive, without a vehicle, kept with their badge for the records. */
function generateFormerDrivers(g: OrgGen, fleet: Fleet): void {
  const { rows, spec, scale, now, orgId } = g;
  const { placements, count } = fleet;
  // Drivers who left: inactive, without a vehicle, kept with their badge for the records (a few
  // per organization; their own generator, so the rows above keep their values).
  const formerRng = new Rng(`fleetgraph-seed:${spec.key}:${scale}:former-drivers`);
  const staffed = placements.filter((p) => !p.spare);
  for (let k = 0; k < Math.max(2, Math.round(count / 25)); k++) {
    const placement = staffed[formerRng.int(0, staffed.length - 1)]!;
    const id = uuidV5(`driver:${spec.key}:former:${k}`);
    const created = now - formerRng.int(400, 900) * DAY;
    rows.drivers.push({
      id,
      organization_id: orgId,
      label: `${formerRng.pick(spec.names.first)} ${formerRng.pick(spec.names.last)}`,
      id_key: `${spec.key.toUpperCase()}-X${String(k + 1).padStart(5, '0')}`,
      user_profile_id: null,
      user_contact_id: placement.owner,
      current_vehicle_id: null,
      default_vehicle_id: null,
      active: false,
      created_at: new Date(created),
      updated_at: new Date(now - formerRng.int(30, 300) * DAY),
    });
    rows.groupDrivers.push({ group_id: placement.group.id, driver_id: id });
    rows.driverAuxiliaryDevices.push({
      id: uuidV5(`driver-aux:${spec.key}:former:${k}:badge`),
      driver_id: id,
      kind: 'BADGE',
      serial_number: `BDG-${spec.key.toUpperCase()}-X${String(k + 1).padStart(6, '0')}`,
    });
  }
}

const HEAVY_TRUCKS = new Set(['FH 500', 'R 450', 'XF 480', 'TGX 18.510']);
const CARS = new Set(['Corolla Touring Sports', 'Niro Plug-in', 'Octavia Combi', 'Mirai']);
function vehicleTypeOf(model: string): 'CAR' | 'VAN' | 'HEAVY_TRUCK' {
  return HEAVY_TRUCKS.has(model) ? 'HEAVY_TRUCK' : CARS.has(model) ? 'CAR' : 'VAN';
}
const TANK_LITRES = { CAR: 50, VAN: 75, HEAVY_TRUCK: 600 } as const;

const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTVWXYZ';

function uniquePlate(rng: Rng, style: 'DE' | 'FR', city: CityInfo, used: Set<string>): string {
  const letter = () => PLATE_LETTERS[rng.int(0, PLATE_LETTERS.length - 1)]!;
  for (;;) {
    const plate =
      style === 'DE'
        ? `${city.code}-${letter()}${letter()} ${rng.int(1, 9999)}`
        : `${letter()}${letter()}-${String(rng.int(1, 999)).padStart(3, '0')}-${letter()}${letter()}`;
    if (!used.has(plate)) {
      used.add(plate);
      return plate;
    }
  }
}
