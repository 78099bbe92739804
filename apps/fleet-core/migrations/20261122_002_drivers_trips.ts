/**
 * fleet schema, drivers and trips: drivers (with group placement, auxiliary identification
 * devices and vehicle sessions), more vehicle and device columns, trips with their harsh events,
 * overspeeds and metadata, device history, reported fields and readings, battery annotations.
 *
 * Every time-ordered table has an index `(<owner>_id, <time> desc, id desc)`: the nested pages
 * (Device.trips, Vehicle.trips, Driver.trips, ...) are keyset pages in exactly that order, so a
 * page deep into 10M trips is one index range scan, like the first one. Those time columns are
 * timestamptz(3): cursors carry JavaScript timestamps (milliseconds), so the stored values must
 * not hold microseconds a cursor cannot repeat.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table fleet.vehicles
      add column label text,
      add column vehicle_type text not null default 'CAR',
      add column registration_country text,
      add column fuel_tank_capacity_l numeric(6,1),
      add column battery_capacity_kwh numeric(6,1),
      add column odometer_updated_at timestamptz;

    alter table fleet.devices
      add column last_latitude double precision,
      add column last_longitude double precision,
      add column last_position_at timestamptz;

    create table fleet.drivers (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      label text not null,
      id_key text,
      user_profile_id uuid references fleet.accounts(id) on delete set null,
      user_contact_id uuid references fleet.accounts(id) on delete set null,
      current_vehicle_id uuid references fleet.vehicles(id) on delete set null,
      default_vehicle_id uuid references fleet.vehicles(id) on delete set null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index drivers_org_idx on fleet.drivers (organization_id);
    create index drivers_label_idx on fleet.drivers (label, id);
    create index drivers_created_idx on fleet.drivers (created_at, id);
    create index drivers_id_key_idx on fleet.drivers (id_key);
    create index drivers_profile_idx on fleet.drivers (user_profile_id);
    create index drivers_contact_idx on fleet.drivers (user_contact_id);
    create index drivers_current_vehicle_idx on fleet.drivers (current_vehicle_id);

    create table fleet.group_drivers (
      group_id uuid not null references fleet.groups(id) on delete cascade,
      driver_id uuid not null references fleet.drivers(id) on delete cascade,
      primary key (group_id, driver_id)
    );
    create index group_drivers_driver_idx on fleet.group_drivers (driver_id, group_id);

    -- Badges, key fobs and phones that identify a driver in a vehicle.
    create table fleet.driver_auxiliary_devices (
      id uuid primary key,
      driver_id uuid not null references fleet.drivers(id) on delete cascade,
      kind text not null,
      serial_number text,
      mac_address_hash text,
      id_key text
    );
    create index dad_driver_idx on fleet.driver_auxiliary_devices (driver_id);
    create index dad_serial_idx on fleet.driver_auxiliary_devices (serial_number);
    create index dad_mac_idx on fleet.driver_auxiliary_devices (mac_address_hash);
    create index dad_id_key_idx on fleet.driver_auxiliary_devices (id_key);

    create table fleet.driver_vehicle_sessions (
      id uuid primary key,
      driver_id uuid not null references fleet.drivers(id) on delete cascade,
      vehicle_id uuid not null references fleet.vehicles(id) on delete cascade,
      started_at timestamptz(3) not null,
      ended_at timestamptz
    );
    create index drvs_driver_idx on fleet.driver_vehicle_sessions (driver_id, started_at desc, id desc);
    create index drvs_vehicle_idx on fleet.driver_vehicle_sessions (vehicle_id, driver_id);

    alter table fleet.device_vehicle_sessions alter column started_at type timestamptz(3);
    create index dvs_device_time_idx on fleet.device_vehicle_sessions (device_id, started_at desc, id desc);

    create table fleet.trips (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      vehicle_id uuid references fleet.vehicles(id) on delete set null,
      driver_id uuid references fleet.drivers(id) on delete set null,
      started_at timestamptz(3) not null,
      ended_at timestamptz not null,
      start_latitude double precision not null,
      start_longitude double precision not null,
      end_latitude double precision not null,
      end_longitude double precision not null,
      start_address text,
      end_address text,
      distance_m integer not null,
      max_speed_kmh real not null,
      idle_s integer not null default 0,
      fuel_used_l real,
      check (ended_at >= started_at),
      check (distance_m >= 0)
    );
    create index trips_device_idx on fleet.trips (device_id, started_at desc, id desc);
    create index trips_vehicle_idx on fleet.trips (vehicle_id, started_at desc, id desc);
    create index trips_driver_idx on fleet.trips (driver_id, started_at desc, id desc);

    create table fleet.trip_harshes (
      id uuid primary key,
      trip_id uuid not null references fleet.trips(id) on delete cascade,
      device_id text not null references fleet.devices(id) on delete cascade,
      occurred_at timestamptz(3) not null,
      kind text not null,
      intensity_g real not null,
      speed_kmh real not null,
      latitude double precision not null,
      longitude double precision not null
    );
    create index trip_harshes_device_idx on fleet.trip_harshes (device_id, occurred_at desc, id desc);
    create index trip_harshes_trip_idx on fleet.trip_harshes (trip_id);

    create table fleet.trip_overspeeds (
      id uuid primary key,
      trip_id uuid not null references fleet.trips(id) on delete cascade,
      device_id text not null references fleet.devices(id) on delete cascade,
      started_at timestamptz(3) not null,
      ended_at timestamptz not null,
      max_speed_kmh real not null,
      speed_limit_kmh real not null,
      distance_m integer not null,
      latitude double precision not null,
      longitude double precision not null
    );
    create index trip_overspeeds_device_idx on fleet.trip_overspeeds (device_id, started_at desc, id desc);
    create index trip_overspeeds_trip_idx on fleet.trip_overspeeds (trip_id);

    create table fleet.trip_metadata (
      id uuid primary key,
      trip_id uuid not null references fleet.trips(id) on delete cascade,
      key text not null,
      value text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (trip_id, key)
    );

    create table fleet.device_history (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      occurred_at timestamptz(3) not null,
      event text not null,
      reason text,
      vehicle_id uuid references fleet.vehicles(id) on delete set null
    );
    create index device_history_device_idx on fleet.device_history (device_id, occurred_at desc, id desc);

    -- The data fields a device reports (ODOMETER, FUEL_LEVEL, ...) and their last value.
    create table fleet.device_fields (
      device_id text not null references fleet.devices(id) on delete cascade,
      name text not null,
      unit text,
      last_value double precision,
      last_recorded_at timestamptz,
      primary key (device_id, name)
    );

    create table fleet.readings (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      field text not null,
      recorded_at timestamptz(3) not null,
      value double precision not null,
      latitude double precision,
      longitude double precision
    );
    create index readings_device_idx on fleet.readings (device_id, recorded_at desc, id desc);

    create table fleet.battery_annotations (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      recorded_at timestamptz(3) not null,
      voltage real not null,
      state text not null
    );
    create index battery_annotations_device_idx on fleet.battery_annotations (device_id, recorded_at desc, id desc);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists fleet.battery_annotations, fleet.readings, fleet.device_fields, fleet.device_history,
      fleet.trip_metadata, fleet.trip_overspeeds, fleet.trip_harshes, fleet.trips, fleet.driver_vehicle_sessions,
      fleet.driver_auxiliary_devices, fleet.group_drivers, fleet.drivers cascade;
    drop index if exists fleet.dvs_device_time_idx;
    alter table fleet.devices drop column last_latitude, drop column last_longitude, drop column last_position_at;
    alter table fleet.vehicles drop column label, drop column vehicle_type, drop column registration_country,
      drop column fuel_tank_capacity_l, drop column battery_capacity_kwh, drop column odometer_updated_at;
  `);
}
