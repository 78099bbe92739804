/**
 * Imports a JSON dataset (format: tools/seed/README.md, schema: dataset.ts) into the fleet schema.
 *
 * Rules:
 * - Everything is checked first: shape (zod), references, duplicates, hierarchy cycles, and
 *   conflicts with the database. Any problem -> ImportError listing every problem with its JSON
 *   path, and nothing is written.
 * - fleet-core never writes the SSO: each account's sign-in goes to `options.signIns` before the
 *   transaction opens (tools/seed hashes each password there, own salt each), and the writer it
 *   returns runs inside the transaction.
 * - All rows are written in ONE transaction, the group closure of each new organization included:
 *   the core rows, then what trips and devices record and the catalogs (import-activity.ts), then
 *   the services section (import-services.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { refreshGroupClosure } from '@fleetgraph/visibility';
import { datasetSchema, formatPath, type Dataset, type DeviceInput } from './dataset';
import { COUNTED_TABLES, emptyCounts, type TableCounts } from '../demo/enums';
import { checkDataset, type OrgPlan, type Plan, type SignInConflicts } from './validate';
import { checkServices, importServices } from './import-services';
import { ACTIVITY_TABLES, buildActivityRows } from './import-activity';
import { countRows, insertInBatches } from '../demo/write';

export class ImportError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      `invalid dataset: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ImportError';
    this.problems = problems;
  }
}

export interface ImportSummary extends TableCounts {
  /** The organizations created. */
  imported: Array<{ id: string; name: string }>;
  /** Rows written in the other tables (services domains and catalogs), by table name. */
  services: Record<string, number>;
  durationMs: number;
  /** SSO users written by the `signIns` writer (0 without one). */
  users: number;
}

/** An imported account's sign-in: the SSO user has the account's id. */
export interface ImportedAccount {
  uid: string;
  email: string;
  password: string;
  fullName: string;
  /** lower-case language code */
  language: string;
  createdAt: Date;
}

export interface ImportOptions {
  /** The instant the rows are stamped with (default: now). */
  now?: Date;
  /**
   * Receives every imported account's sign-in before the transaction opens (hash there); the
   * returned writer runs inside the import's transaction and answers how many users it wrote.
   */
  signIns?: (accounts: ImportedAccount[]) => Promise<(trx: Knex.Transaction) => Promise<number>>;
  /** Account ids and e-mails that already have a sign-in (the SSO's users): refused like fleet's own. */
  signInConflicts?: SignInConflicts;
}

/** Validates the dataset and returns its problems (empty when it can be imported). Writes nothing. */
export async function validateDataset(
  knex: Knex,
  input: unknown,
  options: Pick<ImportOptions, 'signInConflicts'> = {},
): Promise<string[]> {
  return (await analyze(knex, input, options.signInConflicts)).problems;
}

async function analyze(
  knex: Knex,
  input: unknown,
  signInConflicts?: SignInConflicts,
): Promise<{ problems: string[]; dataset?: Dataset; plan: Plan }> {
  const problems: string[] = [];
  const parsed = datasetSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${formatPath(issue.path)}: ${issue.message}`);
  }
  const plan = await checkDataset(knex, input, problems, signInConflicts);
  checkServices(input, problems);
  const unique = [...new Set(problems)];
  return parsed.success ? { problems: unique, dataset: parsed.data, plan } : { problems: unique, plan };
}

export async function importDataset(
  knex: Knex,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const { problems, dataset, plan } = await analyze(knex, input, options.signInConflicts);
  if (problems.length > 0 || !dataset) throw new ImportError(problems);

  const writeSignIns = options.signIns ? await options.signIns(signInsOf(dataset, plan)) : undefined;
  const now = options.now ?? new Date();
  const rows = buildRows(dataset, plan, now);
  const activity = buildActivityRows(dataset, plan, now);
  const countKeyOf = new Map(
    (Object.keys(COUNTED_TABLES) as Array<keyof TableCounts>).map((key) => [COUNTED_TABLES[key], key]),
  );

  const counts = emptyCounts();
  const services: Record<string, number> = {};
  let users = 0;
  await knex.transaction(async (trx) => {
    counts.organizations = await insertInBatches(trx, 'fleet.organizations', rows.organizations);
    counts.accounts = await insertInBatches(trx, 'fleet.accounts', rows.accounts);
    if (writeSignIns) users = await writeSignIns(trx);
    counts.products = await insertInBatches(trx, 'fleet.products', rows.products);
    counts.groups = await insertInBatches(trx, 'fleet.groups', rows.groups);
    counts.groupParents = await insertInBatches(trx, 'fleet.group_parents', rows.groupParents);
    counts.groupAccounts = await insertInBatches(trx, 'fleet.group_accounts', rows.groupAccounts);
    counts.vehicles = await insertInBatches(trx, 'fleet.vehicles', rows.vehicles);
    counts.devices = await insertInBatches(trx, 'fleet.devices', rows.devices);
    counts.groupDevices = await insertInBatches(trx, 'fleet.group_devices', rows.groupDevices);
    counts.groupVehicles = await insertInBatches(trx, 'fleet.group_vehicles', rows.groupVehicles);
    counts.deviceVehicleSessions = await insertInBatches(trx, 'fleet.device_vehicle_sessions', rows.sessions);
    counts.drivers = await insertInBatches(trx, 'fleet.drivers', rows.drivers);
    counts.groupDrivers = await insertInBatches(trx, 'fleet.group_drivers', rows.groupDrivers);
    counts.driverAuxiliaryDevices = await insertInBatches(
      trx,
      'fleet.driver_auxiliary_devices',
      rows.driverAuxiliaryDevices,
    );
    counts.driverVehicleSessions = await insertInBatches(
      trx,
      'fleet.driver_vehicle_sessions',
      rows.driverSessions,
    );
    counts.trips = await insertInBatches(trx, 'fleet.trips', rows.trips);
    for (const table of ACTIVITY_TABLES) {
      const written = await insertInBatches(trx, table, activity[table]);
      const key = countKeyOf.get(table);
      if (key) counts[key] = written;
      else services[table] = written;
    }
    const orgIds = plan.organizations.map((o) => o.id);
    Object.assign(services, await importServices(trx, dataset, plan, now));
    for (const id of orgIds) await refreshGroupClosure(trx, id);
    counts.groupClosure = await countRows(trx, 'fleet.group_closure as c', (query) =>
      query.join('fleet.groups as g', 'g.id', 'c.descendant_id').whereIn('g.organization_id', orgIds),
    );
  });
  return {
    ...counts,
    users,
    services,
    imported: dataset.organizations.map((org, o) => ({ id: plan.organizations[o]!.id, name: org.name })),
    durationMs: Date.now() - started,
  };
}

/** Every account's sign-in, in dataset order. */
function signInsOf(dataset: Dataset, plan: Plan): ImportedAccount[] {
  return dataset.organizations.flatMap((org, o) =>
    org.accounts.map((a, i) => ({
      uid: plan.organizations[o]!.accountIds[i]!,
      email: a.email,
      password: a.password,
      fullName: a.fullName,
      language: (a.language ?? 'EN').toLowerCase(),
      createdAt: new Date(),
    })),
  );
}

type Row = Record<string, unknown>;

function buildRows(dataset: Dataset, plan: Plan, now: Date) {
  const rows = {
    organizations: [] as Row[],
    accounts: [] as Row[],
    products: [] as Row[],
    groups: [] as Row[],
    groupParents: [] as Row[],
    groupAccounts: [] as Row[],
    vehicles: [] as Row[],
    devices: [] as Row[],
    groupDevices: [] as Row[],
    groupVehicles: [] as Row[],
    sessions: [] as Row[],
    drivers: [] as Row[],
    groupDrivers: [] as Row[],
    driverAuxiliaryDevices: [] as Row[],
    driverSessions: [] as Row[],
    trips: [] as Row[],
  };
  const addProducts = (base: string, products: Dataset['products']) =>
    products.forEach((p, i) =>
      rows.products.push({
        id: plan.productIds.get(`${base}[${i}]`),
        name: p.name,
        network: p.network,
        market: p.market,
        has_wifi: p.hasWifi,
        has_bluetooth: p.hasBluetooth,
      }),
    );
  addProducts('products', dataset.products);

  dataset.organizations.forEach((org, o) => {
    const orgPlan: OrgPlan = plan.organizations[o]!;
    const orgId = orgPlan.id;
    addProducts(`organizations[${o}].products`, org.products);
    rows.organizations.push({ id: orgId, name: org.name, created_at: now });

    org.accounts.forEach((a, i) => {
      const id = orgPlan.accountIds[i]!;
      const language = a.language ?? 'EN';
      rows.accounts.push({
        id,
        organization_id: orgId,
        email: a.email,
        phone: a.phone ?? null,
        full_name: a.fullName,
        short_name: a.shortName ?? null,
        company_name: a.companyName ?? org.name,
        country_code: a.countryCode ?? null,
        language,
        time_zone: a.timeZone ?? 'UTC',
        created_at: now,
        updated_at: now,
        confirmed_at: a.confirmedAt ?? now,
        last_sign_in_at: a.lastSignInAt ?? null,
      });
    });

    const pairs = new Set<string>();
    const link = (target: Row[], row: Row) => {
      const key = JSON.stringify(row);
      if (pairs.has(key)) return; // listing a member or group twice is harmless
      pairs.add(key);
      target.push(row);
    };
    org.groups.forEach((g, i) => {
      const id = orgPlan.groupIds[i]!;
      rows.groups.push({
        id,
        organization_id: orgId,
        label: g.label,
        tags: g.tags,
        hierarchy_level: g.hierarchyLevel,
        owner_id: g.owner ? orgPlan.resolveAccount(g.owner) : null,
        created_at: now,
        updated_at: now,
      });
      for (const parent of g.parents)
        link(rows.groupParents, { group_id: id, parent_id: orgPlan.resolveGroup(parent) });
      for (const member of g.members)
        link(rows.groupAccounts, { group_id: id, account_id: orgPlan.resolveAccount(member) });
    });

    org.vehicles.forEach((v, i) => {
      const id = orgPlan.vehicleIds[i]!;
      rows.vehicles.push({
        id,
        organization_id: orgId,
        vin: v.vin ?? null,
        plate: v.plate ?? null,
        make: v.make ?? null,
        model: v.model ?? null,
        model_year: v.year ?? null,
        fuel_type: v.fuelType,
        color: v.color ?? null,
        odometer_km: v.odometerKm ?? null,
        odometer_updated_at: v.odometerUpdatedAt ?? null,
        label: v.label ?? null,
        vehicle_type: v.vehicleType,
        registration_country: v.registrationCountry ?? null,
        fuel_tank_capacity_l: v.fuelTankCapacityLiters ?? null,
        battery_capacity_kwh: v.batteryCapacityKwh ?? null,
        created_at: now,
        updated_at: now,
      });
      for (const group of v.groups)
        link(rows.groupVehicles, { group_id: orgPlan.resolveGroup(group), vehicle_id: id });
    });

    org.devices.forEach((d) => {
      const currentVehicle = d.currentVehicle ? orgPlan.resolveVehicle(d.currentVehicle) : null;
      rows.devices.push({
        id: d.id,
        organization_id: orgId,
        active_account: d.activeAccount ?? null,
        device_type: d.deviceType,
        serial_number: d.serialNumber ?? null,
        onboarded: d.onboarded,
        owner_id: d.owner ? orgPlan.resolveAccount(d.owner) : null,
        product_id: d.product ? plan.resolveProduct(d.product) : null,
        current_vehicle_id: currentVehicle,
        status: d.status ?? (d.lastConnectionAt ? 'DISCONNECTED' : 'NEVER_CONNECTED'),
        first_connection_at: d.firstConnectionAt ?? null,
        last_connection_at: d.lastConnectionAt ?? null,
        last_disconnection_at: d.lastDisconnectionAt ?? null,
        last_activity_at: d.lastActivityAt ?? null,
        last_connection_reason: d.lastConnectionReason ?? null,
        last_disconnection_reason: d.lastDisconnectionReason ?? null,
        last_latitude: d.lastPosition?.latitude ?? null,
        last_longitude: d.lastPosition?.longitude ?? null,
        last_position_at: d.lastPosition ? (d.lastPosition.recordedAt ?? d.lastActivityAt ?? null) : null,
        created_at: now,
        updated_at: now,
      });
      for (const group of d.groups)
        link(rows.groupDevices, { group_id: orgPlan.resolveGroup(group), device_id: d.id });
      rows.sessions.push(...sessionsOf(d, orgPlan, currentVehicle, now));
    });

    const vehicleOf = (ref: string | undefined) => (ref ? orgPlan.resolveVehicle(ref) : null);
    org.drivers.forEach((d, i) => {
      const id = orgPlan.driverIds[i]!;
      rows.drivers.push({
        id,
        organization_id: orgId,
        label: d.label,
        id_key: d.idKey ?? null,
        user_profile_id: d.userProfile ? orgPlan.resolveAccount(d.userProfile) : null,
        user_contact_id: d.userContact ? orgPlan.resolveAccount(d.userContact) : null,
        current_vehicle_id: vehicleOf(d.currentVehicle),
        default_vehicle_id: vehicleOf(d.defaultVehicle),
        active: d.active,
        created_at: now,
        updated_at: now,
      });
      for (const group of d.groups)
        link(rows.groupDrivers, { group_id: orgPlan.resolveGroup(group), driver_id: id });
      for (const a of d.auxiliaryDevices) {
        rows.driverAuxiliaryDevices.push({
          id: randomUUID(),
          driver_id: id,
          kind: a.kind,
          serial_number: a.serialNumber ?? null,
          mac_address_hash: a.macAddressHash ?? null,
          id_key: a.idKey ?? null,
        });
      }
      for (const s of d.vehicleSessions) {
        rows.driverSessions.push({
          id: randomUUID(),
          driver_id: id,
          vehicle_id: orgPlan.resolveVehicle(s.vehicle),
          started_at: s.startedAt,
          ended_at: s.endedAt ?? null,
        });
      }
    });

    const deviceVehicle = new Map(org.devices.map((d) => [d.id, vehicleOf(d.currentVehicle)]));
    org.trips.forEach((t, i) => {
      rows.trips.push({
        id: orgPlan.tripIds[i]!,
        device_id: t.device,
        vehicle_id: t.vehicle ? orgPlan.resolveVehicle(t.vehicle) : (deviceVehicle.get(t.device) ?? null),
        driver_id: t.driver ? orgPlan.resolveDriver(t.driver) : null,
        started_at: t.startedAt,
        ended_at: t.endedAt,
        start_latitude: t.start.latitude,
        start_longitude: t.start.longitude,
        end_latitude: t.end.latitude,
        end_longitude: t.end.longitude,
        start_address: t.startAddress ?? null,
        end_address: t.endAddress ?? null,
        distance_m: Math.round(t.distanceKm * 1000),
        max_speed_kmh: t.maxSpeedKmh,
        idle_s: t.idleSeconds,
        fuel_used_l: t.fuelUsedLiters ?? null,
      });
    });
  });
  return rows;
}

/** The listed sessions, plus an open one for the current vehicle when none is listed. */
function sessionsOf(d: DeviceInput, orgPlan: OrgPlan, currentVehicle: string | null, now: Date): Row[] {
  const sessions: Row[] = d.vehicleSessions.map((s) => ({
    id: randomUUID(),
    device_id: d.id,
    vehicle_id: orgPlan.resolveVehicle(s.vehicle),
    started_at: s.startedAt,
    ended_at: s.endedAt ?? null,
  }));
  if (currentVehicle && !sessions.some((s) => s.ended_at === null)) {
    sessions.push({
      id: randomUUID(),
      device_id: d.id,
      vehicle_id: currentVehicle,
      started_at: d.lastConnectionAt ?? d.firstConnectionAt ?? now.toISOString(),
      ended_at: null,
    });
  }
  return sessions;
}
