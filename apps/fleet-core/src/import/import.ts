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
import type { Knex } from 'knex';
import { refreshGroupClosure } from '@fleetgraph/visibility';
import { datasetSchema, formatPath, type Dataset } from './dataset';
import { buildRows } from './rows';
import { COUNTED_TABLES, emptyCounts, type TableCounts } from '../demo/enums';
import { checkDataset, type Plan, type SignInConflicts } from './validate';
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
