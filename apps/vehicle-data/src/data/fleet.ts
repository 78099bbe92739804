/**
 * Fleet facts vehicle-data reads (never writes), through the contract fleet-core publishes
 * (schema fleet_contract, views `*_v1`) and libs/visibility: the VIN of a device's vehicle and
 * vehicles by plate, both limited to what the viewer may see. The manifest depends on fleet-core,
 * so the contract exists wherever vehicle-data runs (runSubgraph, npm start and the test harness
 * migrate fleet-core first).
 */
import type { Knex } from 'knex';
import type { Viewer } from '@fleetgraph/auth';
import { deviceVisibleTo, vehicleVisibleTo } from '@fleetgraph/visibility';

/** The VIN of the vehicle a visible device is plugged into now; null when unknown or hidden. */
export async function deviceVin(knex: Knex, viewer: Viewer, deviceId: string): Promise<string | null> {
  const row = (await knex('fleet_contract.devices_v1 as d')
    .join('fleet_contract.vehicles_v1 as v', 'v.id', 'd.current_vehicle_id')
    .where('d.id', deviceId)
    .where(deviceVisibleTo(knex, viewer, 'd.id'))
    .first('v.vin as vin')) as { vin: string | null } | undefined;
  return row?.vin ?? null;
}

export interface FleetVehicleRow {
  id: string;
  vin: string | null;
  plate: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  fuelType: string | null;
}

/** Visible fleet vehicles whose plate, without separators and in upper case, equals `normalized`. */
export async function fleetVehiclesByPlate(
  knex: Knex,
  viewer: Viewer,
  normalized: string,
): Promise<FleetVehicleRow[]> {
  return knex('fleet_contract.vehicles_v1 as v')
    .select(
      'v.id as id',
      'v.vin as vin',
      'v.plate as plate',
      'v.make as make',
      'v.model as model',
      'v.model_year as year',
      'v.fuel_type as fuelType',
    )
    .whereRaw(`upper(regexp_replace(v.plate, '[^A-Za-z0-9]', '', 'g')) = ?`, [normalized])
    .where(vehicleVisibleTo(knex, viewer, 'v.id'))
    .orderBy('v.id');
}
