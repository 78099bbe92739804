/**
 * What an import needs to attach a statement row to the fleet, read once through fleet_contract:
 * vehicles by id, VIN and plate (per organization), devices by IMEI, device sessions (which device
 * was in the vehicle at the transaction time), drivers by id and label, and each vehicle's group.
 */
import type { Knex } from 'knex';

interface Vehicle {
  id: string;
  organization_id: string;
  vin: string | null;
  plate: string | null;
}

export interface FleetIndex {
  vehicleById: Map<string, Vehicle>;
  vehiclesByVin: Map<string, Vehicle[]>;
  vehiclesByPlate: Map<string, Vehicle[]>;
  deviceById: Map<string, { id: string; organization_id: string; current_vehicle_id: string | null }>;
  sessions: Map<string, Array<{ device_id: string; started_at: Date; ended_at: Date | null }>>;
  currentDevice: Map<string, string>;
  driverById: Map<string, { id: string; organization_id: string; label: string | null }>;
  driversByLabel: Map<string, Array<{ id: string; organization_id: string }>>;
  groupOfVehicle: Map<string, string>;
  groupOfDevice: Map<string, string>;
}

const norm = (s: string) => s.replace(/[\s-]/g, '').toUpperCase();
export const plateKey = norm;

export async function loadFleetIndex(knex: Knex, organizationId?: string): Promise<FleetIndex> {
  const org = <Q extends Knex.QueryBuilder>(q: Q, column = 'organization_id') =>
    organizationId ? q.where(column, organizationId) : q;
  const vehicles: Vehicle[] = await org(
    knex('fleet_contract.vehicles_v1').select('id', 'organization_id', 'vin', 'plate'),
  );
  const push = <V>(map: Map<string, V[]>, key: string | null, value: V) => {
    if (!key) return;
    const list = map.get(key) ?? [];
    list.push(value);
    map.set(key, list);
  };
  const index: FleetIndex = {
    vehicleById: new Map(vehicles.map((v) => [v.id, v])),
    vehiclesByVin: new Map(),
    vehiclesByPlate: new Map(),
    deviceById: new Map(),
    sessions: new Map(),
    currentDevice: new Map(),
    driverById: new Map(),
    driversByLabel: new Map(),
    groupOfVehicle: new Map(),
    groupOfDevice: new Map(),
  };
  for (const v of vehicles) {
    push(index.vehiclesByVin, v.vin ? v.vin.toUpperCase() : null, v);
    push(index.vehiclesByPlate, v.plate ? norm(v.plate) : null, v);
  }
  for (const d of await org(
    knex('fleet_contract.devices_v1').select('id', 'organization_id', 'current_vehicle_id'),
  )) {
    index.deviceById.set(d.id, d);
    if (d.current_vehicle_id) index.currentDevice.set(d.current_vehicle_id, d.id);
  }
  const sessions = await knex('fleet_contract.device_vehicle_sessions_v1 as s')
    .select('s.device_id', 's.vehicle_id', 's.started_at', 's.ended_at')
    .modify((q) => {
      if (organizationId)
        q.whereIn(
          's.vehicle_id',
          knex('fleet_contract.vehicles_v1').select('id').where('organization_id', organizationId),
        );
    });
  for (const s of sessions) push(index.sessions, s.vehicle_id, s);
  for (const d of await org(knex('fleet_contract.drivers_v1').select('id', 'organization_id', 'label'))) {
    index.driverById.set(d.id, d);
    push(index.driversByLabel, d.label ? d.label.toLowerCase() : null, d);
  }
  for (const g of await knex('fleet_contract.group_vehicles_v1')
    .select('group_id', 'vehicle_id')
    .orderBy('group_id')) {
    if (index.vehicleById.has(g.vehicle_id) && !index.groupOfVehicle.has(g.vehicle_id))
      index.groupOfVehicle.set(g.vehicle_id, g.group_id);
  }
  for (const g of await knex('fleet_contract.group_devices_v1')
    .select('group_id', 'device_id')
    .orderBy('group_id')) {
    if (index.deviceById.has(g.device_id) && !index.groupOfDevice.has(g.device_id))
      index.groupOfDevice.set(g.device_id, g.group_id);
  }
  return index;
}

/** The device in the vehicle at `at` (session), else the one plugged in now. */
export function deviceAt(index: FleetIndex, vehicleId: string, at: Date): string | null {
  for (const s of index.sessions.get(vehicleId) ?? []) {
    if (s.started_at <= at && (s.ended_at == null || at < s.ended_at)) return s.device_id;
  }
  return index.currentDevice.get(vehicleId) ?? null;
}
