/**
 * Demo data of fleet-core's services domains, generated from the core rows already written in the
 * same transaction (organizations, accounts, groups, devices, vehicles): account roles and alert
 * preferences, descriptions, alert templates with attachments, vehicle alerts and feedbacks,
 * workshops, driver services, bookings, onboarding providers/distributors/staff/requests, client
 * identifications, update campaigns, the metric and log-fetch catalogs, device log fetches,
 * remote diagnostics, profile privacy and modes, and eSIM (LPA) operations.
 *
 * One writer per area (services/*.ts), run per organization in a fixed order by `seedServices`.
 *
 * Deterministic like the core seed: ids are name-based UUIDs, random choices come from a PRNG
 * seeded per organization, timestamps are offsets from `now`.
 */
import type { Knex } from 'knex';
import { Rng } from './ids';
import { writeCatalogs } from './services/catalogs';
import {
  orgContext,
  type AccountRow,
  type DeviceRow,
  type GroupRow,
  type OrgContext,
  type Row,
  type VehicleRow,
} from './services/context';
import { writeDescriptions, writeDriverLicences, writeRoles } from './services/accounts';
import { writeAlertTemplates, writeVehicleAlerts } from './services/alerts';
import { writeBookings, writeWorkshops } from './services/bookings';
import {
  writeClientIdentifications,
  writeDistributors,
  writeOnboardingRequests,
} from './services/onboarding';
import { writeCampaigns } from './services/campaigns';
import { writeDeviceServices } from './services/devices';

export { METRICS, LOGFETCH_ACTIONS } from './services/catalogs';

export interface ServicesSeedOptions {
  /** reference time of every timestamp (ms) */
  now: number;
  onBatch?: (table: string, inserted: number) => void;
}

/** Row counts per table written by seedServices. */
export type ServicesCounts = Record<string, number>;

/**
 * The area writers of one organization, in the order they draw from its PRNG (changing the order
 * changes the demo). Later areas read what earlier ones decided (managers, workshops, distributors).
 */
const AREAS: ReadonlyArray<(ctx: OrgContext) => void | Promise<void>> = [
  writeRoles,
  writeDescriptions,
  writeAlertTemplates,
  writeVehicleAlerts,
  writeWorkshops,
  writeBookings,
  writeDistributors,
  writeOnboardingRequests,
  writeClientIdentifications,
  writeCampaigns,
  writeDeviceServices,
  writeDriverLicences,
];

export async function seedServices(
  trx: Knex | Knex.Transaction,
  options: ServicesSeedOptions,
): Promise<ServicesCounts> {
  const { now } = options;
  const rows: Record<string, Row[]> = {
    'fleet.onboarding_providers': [],
    'fleet.workshops': [],
    'fleet.metrics': [],
    'fleet.logfetch_actions': [],
    'fleet.account_roles': [],
    'fleet.account_alert_preferences': [],
    'fleet.descriptions': [],
    'fleet.alert_templates': [],
    'fleet.alert_attachments': [],
    'fleet.vehicle_alerts': [],
    'fleet.vehicle_alert_feedbacks': [],
    'fleet.organization_workshops': [],
    'fleet.driver_services': [],
    'fleet.driver_service_workshops': [],
    'fleet.bookings': [],
    'fleet.onboarding_distributors': [],
    'fleet.onboarding_staff': [],
    'fleet.onboarding_requests': [],
    'fleet.client_identifications': [],
    'fleet.campaigns': [],
    'fleet.campaign_devices': [],
    'fleet.device_log_fetches': [],
    'fleet.device_remote_diags': [],
    'fleet.device_profile_privacies': [],
    'fleet.device_profile_modes': [],
    'fleet.lpa_operations': [],
  };
  const push = (table: string, row: Row) => rows[table]!.push(row);
  writeCatalogs(push, now);

  const core = await loadCore(trx);
  for (const org of core.organizations) {
    const rng = new Rng(`fleetgraph-seed:services:${org.id}`);
    const orgAccounts = core.accounts.filter((a) => a.organization_id === org.id);
    if (orgAccounts.length === 0) continue;
    const ctx = orgContext({
      trx,
      now,
      org,
      rng,
      push,
      french: orgAccounts[0]!.language === 'FR',
      orgAccounts,
      orgGroups: core.groups.filter((g) => g.organization_id === org.id),
      orgDevices: core.devices.filter((d) => d.organization_id === org.id),
      orgVehicles: core.vehicles.filter((v) => v.organization_id === org.id),
      orgDrivers: core.drivers.filter((d) => d.organization_id === org.id),
      vehicleById: core.vehicleById,
    });
    for (const area of AREAS) await area(ctx);
  }
  return insertServices(trx, rows, options);
}

/** The core rows the services are generated from, in a stable order. */
async function loadCore(trx: Knex | Knex.Transaction) {
  const organizations: Array<{ id: string; name: string }> = await trx('fleet.organizations')
    .select('id', 'name')
    .orderBy('id');
  const accounts: AccountRow[] = await trx('fleet.accounts')
    .select('id', 'organization_id', 'email', 'full_name', 'phone', 'language')
    .orderBy('id');
  const groups: GroupRow[] = await trx('fleet.groups')
    .select('id', 'organization_id', 'label', 'hierarchy_level')
    .orderBy('id');
  const devices: DeviceRow[] = await trx('fleet.devices')
    .select('id', 'organization_id', 'current_vehicle_id', 'onboarded', 'created_at')
    .orderBy('id');
  const vehicles: VehicleRow[] = await trx('fleet.vehicles')
    .select('id', 'organization_id', 'vin', 'plate', 'make', 'model', 'model_year')
    .orderBy('id');
  const vehicleById = new Map(vehicles.map((v) => [v.id, v]));
  const drivers: Array<{ id: string; organization_id: string }> = await trx('fleet.drivers')
    .select('id', 'organization_id')
    .orderBy('id');

  return { organizations, accounts, groups, devices, vehicles, vehicleById, drivers };
}

/** Catalog tables insert-if-absent; the others in JSON batches, in the order of `rows`. */
async function insertServices(
  trx: Knex | Knex.Transaction,
  rows: Record<string, Row[]>,
  options: ServicesSeedOptions,
): Promise<ServicesCounts> {
  const counts: ServicesCounts = {};
  const catalogs = new Set([
    'fleet.workshops',
    'fleet.onboarding_providers',
    'fleet.metrics',
    'fleet.logfetch_actions',
  ]);
  for (const [table, tableRows] of Object.entries(rows)) {
    if (catalogs.has(table)) {
      if (tableRows.length > 0) await trx(table).insert(tableRows).onConflict('id').ignore();
      counts[table] = tableRows.length;
      options.onBatch?.(table, tableRows.length);
      continue;
    }
    counts[table] = await insertJson(trx, table, tableRows, (n) => options.onBatch?.(table, n));
  }
  return counts;
}

const JSON_BATCH = 5000;

/**
 * Bulk insert through one JSON parameter per batch (`json_populate_recordset`): several times
 * faster than multi-row VALUES for the large tables (no per-value parameters to build or bind).
 * Columns are those of the rows; a key absent from a row is null.
 */
async function insertJson(
  trx: Knex | Knex.Transaction,
  table: string,
  tableRows: Row[],
  onBatch?: (inserted: number) => void,
): Promise<number> {
  if (tableRows.length === 0) return 0;
  const columns = [...new Set(tableRows.flatMap((row) => Object.keys(row)))];
  const list = columns.map((c) => `"${c}"`).join(', ');
  for (let i = 0; i < tableRows.length; i += JSON_BATCH) {
    const batch = tableRows.slice(i, i + JSON_BATCH);
    await trx.raw(
      `insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ?::json)`,
      [JSON.stringify(batch)],
    );
    onBatch?.(batch.length);
  }
  return tableRows.length;
}
