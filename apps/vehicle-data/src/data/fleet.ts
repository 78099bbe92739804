/**
 * Reads of fleet's schema (never writes): the VIN of a device's vehicle and vehicles by plate,
 * both limited to what the viewer may see. When vehicle-data runs without fleet-core's schema
 * (a standalone start), these reads find nothing.
 */
import type { Knex } from 'knex';
import { visibleDevices, visibleVehicles } from '@fleetgraph/visibility';

const present = new WeakMap<Knex, Promise<boolean>>();
function fleetPresent(knex: Knex): Promise<boolean> {
  let p = present.get(knex);
  if (!p) {
    p = knex
      .raw(
        `select to_regclass('fleet.vehicles') is not null and to_regclass('fleet.group_closure') is not null as ok`,
      )
      .then((r: { rows: { ok: boolean }[] }) => r.rows[0]?.ok === true);
    present.set(knex, p);
    p.then(
      (ok) => !ok && present.delete(knex),
      () => present.delete(knex),
    );
  }
  return p;
}

export async function deviceVin(knex: Knex, viewer: string, deviceId: string): Promise<string | null> {
  if (!(await fleetPresent(knex))) return null;
  const row = (await knex('fleet.devices as d')
    .join('fleet.vehicles as v', 'v.id', 'd.current_vehicle_id')
    .where('d.id', deviceId)
    .whereIn('d.id', visibleDevices(knex, viewer))
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
  viewer: string,
  normalized: string,
): Promise<FleetVehicleRow[]> {
  if (!(await fleetPresent(knex))) return [];
  return knex('fleet.vehicles as v')
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
    .whereIn('v.id', visibleVehicles(knex, viewer))
    .orderBy('v.id');
}
