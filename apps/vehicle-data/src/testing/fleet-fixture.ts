/**
 * vehicle-data reads fleet.vehicles/devices (with fleet's visibility) but never writes them; in
 * tests, where fleet-core's migrations are not ours to run, this creates the few fleet tables it
 * reads, with the same columns, and a small dataset: Alice sees the Acme group and its vehicles;
 * Mallory sees nothing.
 */
import type { Knex } from 'knex';

export const FX = {
  alice: { uid: 'acc00000-0000-4000-8000-000000000001', email: 'alice@acme.example' },
  mallory: { uid: 'acc00000-0000-4000-8000-000000000009', email: 'mallory@other.example' },
  group: 'a1000000-0000-4000-8000-000000000001',
  vehicles: {
    accord: { id: 'e0000000-0000-4000-8000-000000000001', vin: '1HGCM82633A004352', plate: 'AB-123-CD' },
    golf: { id: 'e0000000-0000-4000-8000-000000000002', vin: 'WVWZZZ1JZXW000001', plate: 'B-MW 1234' },
  },
  device: '350000000000001',
};

export async function loadFleetFixture(knex: Knex): Promise<void> {
  await knex.raw(`
    create schema if not exists fleet;
    create table fleet.groups (id uuid primary key, label text not null);
    create table fleet.group_accounts (group_id uuid not null, account_id uuid not null, primary key (group_id, account_id));
    create table fleet.group_closure (ancestor_id uuid not null, descendant_id uuid not null, depth int not null, primary key (ancestor_id, descendant_id));
    create table fleet.vehicles (id uuid primary key, vin text, plate text, make text, model text, model_year int, fuel_type text not null default 'OTHER');
    create table fleet.group_vehicles (group_id uuid not null, vehicle_id uuid not null, primary key (group_id, vehicle_id));
    create table fleet.devices (id text primary key, current_vehicle_id uuid references fleet.vehicles(id));
    create table fleet.group_devices (group_id uuid not null, device_id text not null, primary key (group_id, device_id));
  `);
  const { accord, golf } = FX.vehicles;
  await knex('fleet.groups').insert({ id: FX.group, label: 'Acme' });
  await knex('fleet.group_accounts').insert({ group_id: FX.group, account_id: FX.alice.uid });
  await knex('fleet.group_closure').insert({ ancestor_id: FX.group, descendant_id: FX.group, depth: 0 });
  await knex('fleet.vehicles').insert([
    {
      id: accord.id,
      vin: accord.vin,
      plate: accord.plate,
      make: 'Honda',
      model: 'Accord',
      model_year: 2003,
      fuel_type: 'GASOLINE',
    },
    {
      id: golf.id,
      vin: golf.vin,
      plate: golf.plate,
      make: 'Volkswagen',
      model: 'Golf',
      model_year: 1999,
      fuel_type: 'GASOLINE',
    },
  ]);
  await knex('fleet.group_vehicles').insert([
    { group_id: FX.group, vehicle_id: accord.id },
    { group_id: FX.group, vehicle_id: golf.id },
  ]);
  await knex('fleet.devices').insert({ id: FX.device, current_vehicle_id: accord.id });
  await knex('fleet.group_devices').insert({ group_id: FX.group, device_id: FX.device });
}
