/**
 * The rows an import writes, built from the parsed dataset and the ids the checks assigned: one
 * builder per entity of an organization (accounts, groups, vehicles, devices, drivers, trips).
 */
import { randomUUID } from 'node:crypto';
import type { Dataset, DeviceInput } from './dataset';
import type { OrgPlan, Plan } from './validate';

type Row = Record<string, unknown>;

const emptyRows = () => ({
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
});

export type ImportRows = ReturnType<typeof emptyRows>;

/** One organization being built: its input, its ids, and `link` (a pair listed twice is written once). */
interface OrgRows {
  rows: ImportRows;
  org: Dataset['organizations'][number];
  orgPlan: OrgPlan;
  orgId: string;
  now: Date;
  plan: Plan;
  link(target: Row[], row: Row): void;
  vehicleOf(ref: string | undefined): string | null;
}

const BUILDERS = [buildAccounts, buildGroups, buildVehicles, buildDevices, buildDrivers, buildTrips];

export function buildRows(dataset: Dataset, plan: Plan, now: Date): ImportRows {
  const rows = emptyRows();
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
    const orgPlan = plan.organizations[o]!;
    const orgId = orgPlan.id;
    addProducts(`organizations[${o}].products`, org.products);
    rows.organizations.push({ id: orgId, name: org.name, created_at: now });
    const pairs = new Set<string>();
    const link = (target: Row[], row: Row) => {
      const key = JSON.stringify(row);
      if (pairs.has(key)) return; // listing a member or group twice is harmless
      pairs.add(key);
      target.push(row);
    };
    const vehicleOf = (ref: string | undefined) => (ref ? orgPlan.resolveVehicle(ref) : null);
    const ctx: OrgRows = { rows, org, orgPlan, orgId, now, plan, link, vehicleOf };
    for (const build of BUILDERS) build(ctx);
  });
  return rows;
}

/** Accounts (the SSO users are the caller's: see ImportOptions.signIns). */
function buildAccounts(ctx: OrgRows): void {
  const { rows, org, orgPlan, orgId, now } = ctx;
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
}

/** Groups with their parents and members. */
function buildGroups(ctx: OrgRows): void {
  const { rows, org, orgPlan, orgId, now, link } = ctx;
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
}

/** Vehicles and the groups they are in. */
function buildVehicles(ctx: OrgRows): void {
  const { rows, org, orgPlan, orgId, now, link } = ctx;
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
}

/** Devices, their groups and vehicle sessions. */
function buildDevices(ctx: OrgRows): void {
  const { rows, org, orgPlan, orgId, now, plan, link } = ctx;
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
}

/** Drivers with their groups, auxiliary devices and vehicle sessions. */
function buildDrivers(ctx: OrgRows): void {
  const { rows, org, orgPlan, orgId, now, link, vehicleOf } = ctx;
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
}

/** Trips; the vehicle defaults to the device's current vehicle. */
function buildTrips(ctx: OrgRows): void {
  const { rows, org, orgPlan, vehicleOf } = ctx;
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
