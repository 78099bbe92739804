/**
 * vehicle_data: the vehicle reference table (KBA / K-Type), the plate registry, and the
 * coverage catalogue (makes, models, vehicles with energy, powertrain, regions and covered
 * parameters, and the blacklist).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table vehicle_data.vehicle_references (
      id text primary key,
      kba text,
      ktype text,
      make text not null,
      model text not null,
      advanced_model text,
      body_type text,
      fuel_type text not null,
      engine_code text,
      engine_displacement integer,
      engine_output_power integer,
      engine_cylinders integer,
      gearbox_type text,
      doors integer,
      seats integer,
      year_from integer,
      year_to integer
    );
    create unique index vehicle_references_kba_idx on vehicle_data.vehicle_references (kba) where kba is not null;
    create unique index vehicle_references_ktype_idx on vehicle_data.vehicle_references (ktype) where ktype is not null;

    create table vehicle_data.plate_registry (
      country text not null,
      plate text not null,
      plate_display text not null,
      vin text,
      make text,
      model text,
      model_year integer,
      fuel_type text,
      color text,
      reference_id text references vehicle_data.vehicle_references(id),
      first_registration date,
      primary key (country, plate)
    );

    create table vehicle_data.coverage_makes (
      id text primary key,
      name text not null unique
    );
    create table vehicle_data.coverage_models (
      id text primary key,
      make_id text not null references vehicle_data.coverage_makes(id),
      name text not null,
      unique (make_id, name)
    );
    create index coverage_models_order_idx on vehicle_data.coverage_models (name, id);
    create table vehicle_data.coverage_vehicles (
      id text primary key,
      model_id text not null references vehicle_data.coverage_models(id),
      year integer not null,
      energy_type text not null,
      powertrain text not null,
      regions text[] not null,
      parameters text[] not null
    );
    create index coverage_vehicles_model_idx on vehicle_data.coverage_vehicles (model_id, year);
    create index coverage_vehicles_parameters_idx on vehicle_data.coverage_vehicles using gin (parameters);
    create index coverage_vehicles_regions_idx on vehicle_data.coverage_vehicles using gin (regions);
    create table vehicle_data.coverage_blacklists (
      id text primary key,
      make text not null,
      model text,
      year integer,
      reason text not null
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop table if exists vehicle_data.coverage_blacklists, vehicle_data.coverage_vehicles, vehicle_data.coverage_models,
    vehicle_data.coverage_makes, vehicle_data.plate_registry, vehicle_data.vehicle_references`);
}
