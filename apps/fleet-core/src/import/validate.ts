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
 *
 * The pipeline: index the file (checks/index-file.ts: ids, natural keys, duplicates), the catalogs,
 * the database (checks/database.ts), then one named check per entity of each organization
 * (checks/references.ts: checkAccounts, checkGroups, checkVehicles, checkDevices, then
 * checkDrivers and checkTrips once every organization's devices are known).
 */
import type { Knex } from 'knex';
import { checkCatalogs } from './validate-activity';
import { Resolver, emptySeen, list, obj, type OrgIndex, type Problem } from './checks/context';
import { indexOrganization, indexProducts } from './checks/index-file';
import { checkAgainstDatabase, databaseProducts, type SignInConflicts } from './checks/database';
import {
  checkAccounts,
  checkDevices,
  checkDrivers,
  checkGroups,
  checkTrips,
  checkVehicles,
  type OrgCheck,
} from './checks/references';

export { findCycles } from './checks/cycles';
export type { SignInConflicts } from './checks/database';

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

/** Checks run on each organization, in this order (drivers and trips after every organization's devices). */
const ORGANIZATION_CHECKS = [checkAccounts, checkGroups, checkVehicles, checkDevices];
const ACTIVITY_CHECKS = [checkDrivers, checkTrips];

export async function checkDataset(
  knex: Knex,
  input: unknown,
  problems: string[],
  signIns?: SignInConflicts,
): Promise<Plan> {
  const problem: Problem = (path, message) => problems.push(`${path}: ${message}`);
  const root = obj(input);
  const orgs = list(root.organizations).map(obj);

  const seen = emptySeen();
  const { productIds, productByKey } = indexProducts(root, orgs, seen, problem);
  const indexes = orgs.map((org, o) => indexOrganization(org, o, seen, problem));
  const catalogs = await checkCatalogs(knex, root, problem);
  const dbProductByKey = await databaseProducts(knex);
  await checkAgainstDatabase(knex, seen, dbProductByKey, problem, signIns);

  const resolve = new Resolver(problem, seen, productByKey, dbProductByKey);
  const checks: OrgCheck[] = orgs.map((org, o) => {
    const index = indexes[o]!;
    const activity = {
      problem,
      resolveAccount: (ref: string, path: string) => resolve.account(index, ref, path),
      resolveVehicle: (ref: string, path: string) => resolve.vehicle(index, ref, path),
      hasLogfetchAction: catalogs.hasLogfetchAction,
      logfetchActionIds: catalogs.logfetchActionIds,
    };
    return { org, index, problem, resolve, activity };
  });
  for (const check of checks) for (const run of ORGANIZATION_CHECKS) run(check);
  for (const check of checks) for (const run of ACTIVITY_CHECKS) run(check);

  return {
    organizations: indexes.map((index) => planOf(index, resolve)),
    productIds,
    logfetchPositions: catalogs.logfetchPositions,
    resolveProduct: (ref) => {
      const id = resolve.product(ref, '(internal)');
      if (!id) throw new Error(`internal: unresolved product ${ref} after validation`);
      return id;
    },
  };
}

/** The ids of an organization and resolvers that throw (the references were checked). */
function planOf(index: OrgIndex, resolve: Resolver): OrgPlan {
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
    resolveDriver: (ref) => index.driverIds[strict(resolve.driver(index, ref, '(internal)'), 'driver', ref)]!,
    resolveAccount: (ref) => strict(resolve.account(index, ref, '(internal)'), 'account', ref),
    resolveGroup: (ref) => index.groupIds[strict(resolve.group(index, ref, '(internal)'), 'group', ref)]!,
    resolveVehicle: (ref) =>
      index.vehicleIds[strict(resolve.vehicle(index, ref, '(internal)'), 'vehicle', ref)]!,
  };
}
