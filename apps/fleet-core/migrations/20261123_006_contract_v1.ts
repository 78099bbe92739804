/**
 * fleet_contract v1: the read-only contract fleet-core publishes to the other subgraphs.
 *
 * Other apps never name fleet.* tables; they read these views (through libs/visibility and their
 * own data modules). The views are plain projections and joins, so PostgreSQL inlines them and
 * plans a query on a view exactly as one on the tables. A change that breaks a column of a
 * published view is a new version (`*_v2`) kept beside v1 until every reader moved.
 *
 * Visibility (spec section 1): an account sees the groups it is a member of, all their
 * descendants, and the assets placed in any of those groups.
 */
import type { Knex } from 'knex';

export const CONTRACT_SCHEMA = 'fleet_contract';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create schema if not exists fleet_contract;

    -- Accounts: organization and profile facts (uid of the SSO = account id).
    create view fleet_contract.accounts_v1 as
      select id, organization_id, email, full_name, language, time_zone from fleet.accounts;

    -- Roles held by an account in its organization (ADMIN, FLEET_MANAGER, DISPATCHER, ...).
    create view fleet_contract.account_roles_v1 as
      select account_id, role from fleet.account_roles;

    -- Groups with their organization and place in the hierarchy.
    create view fleet_contract.groups_v1 as
      select id, organization_id, label, hierarchy_level from fleet.groups;

    -- Group ancestry: every group is its own ancestor at depth 0.
    create view fleet_contract.group_ancestors_v1 as
      select ancestor_id, descendant_id, depth from fleet.group_closure;

    -- Which groups an account sees: its memberships and all their descendants.
    create view fleet_contract.account_visible_groups_v1 as
      select m.account_id, c.descendant_id as group_id
        from fleet.group_accounts m
        join fleet.group_closure c on c.ancestor_id = m.group_id;

    -- Asset placement: the groups each vehicle, device and driver is in.
    create view fleet_contract.group_vehicles_v1 as select group_id, vehicle_id from fleet.group_vehicles;
    create view fleet_contract.group_devices_v1 as select group_id, device_id from fleet.group_devices;
    create view fleet_contract.group_drivers_v1 as select group_id, driver_id from fleet.group_drivers;

    -- Which assets an account sees (one row per account, asset and visible group holding it).
    create view fleet_contract.account_visible_vehicles_v1 as
      select m.account_id, a.vehicle_id, a.group_id
        from fleet.group_vehicles a
        join fleet.group_closure c on c.descendant_id = a.group_id
        join fleet.group_accounts m on m.group_id = c.ancestor_id;
    create view fleet_contract.account_visible_devices_v1 as
      select m.account_id, a.device_id, a.group_id
        from fleet.group_devices a
        join fleet.group_closure c on c.descendant_id = a.group_id
        join fleet.group_accounts m on m.group_id = c.ancestor_id;
    create view fleet_contract.account_visible_drivers_v1 as
      select m.account_id, a.driver_id, a.group_id
        from fleet.group_drivers a
        join fleet.group_closure c on c.descendant_id = a.group_id
        join fleet.group_accounts m on m.group_id = c.ancestor_id;

    -- Vehicle facts: identity, energy (fuel_type: GASOLINE, DIESEL, ELECTRIC, HYBRID,
    -- PLUGIN_HYBRID, LPG, CNG, HYDROGEN, OTHER), capacities, and the last known odometer.
    create view fleet_contract.vehicles_v1 as
      select id, organization_id, vin, plate, label, make, model, model_year, vehicle_type, fuel_type,
             fuel_tank_capacity_l::float8 as fuel_tank_capacity_l,
             battery_capacity_kwh::float8 as battery_capacity_kwh,
             odometer_km, odometer_updated_at, created_at
        from fleet.vehicles;

    -- Devices (id = IMEI) and the vehicle each is plugged into now.
    create view fleet_contract.devices_v1 as
      select id, organization_id, serial_number, device_type, current_vehicle_id, created_at from fleet.devices;

    -- Drivers and the vehicle each drives now.
    create view fleet_contract.drivers_v1 as
      select id, organization_id, label, id_key, user_profile_id, current_vehicle_id, active, created_at
        from fleet.drivers;

    -- Which device was in which vehicle, and when (ended_at null: still plugged in).
    create view fleet_contract.device_vehicle_sessions_v1 as
      select device_id, vehicle_id, started_at, ended_at from fleet.device_vehicle_sessions;

    -- Trips: when, where from and to, how far (metres), fuel used (litres, when known).
    create view fleet_contract.trips_v1 as
      select id, device_id, vehicle_id, driver_id, started_at, ended_at,
             start_latitude, start_longitude, end_latitude, end_longitude,
             distance_m, fuel_used_l::float8 as fuel_used_l
        from fleet.trips;

    -- Where a vehicle was, and when: trip starts and ends (source TRIP_START / TRIP_END) and
    -- positioned readings of the device in the vehicle at that time (source READING).
    create view fleet_contract.vehicle_positions_v1 as
      select t.vehicle_id, t.started_at as recorded_at, t.start_latitude as latitude,
             t.start_longitude as longitude, 'TRIP_START'::text as source
        from fleet.trips t where t.vehicle_id is not null
      union all
      select t.vehicle_id, t.ended_at, t.end_latitude, t.end_longitude, 'TRIP_END'
        from fleet.trips t where t.vehicle_id is not null
      union all
      select s.vehicle_id, r.recorded_at, r.latitude, r.longitude, 'READING'
        from fleet.readings r
        join fleet.device_vehicle_sessions s
          on s.device_id = r.device_id and r.recorded_at >= s.started_at
         and (s.ended_at is null or r.recorded_at < s.ended_at)
       where r.latitude is not null and r.longitude is not null;

    -- Odometer readings (km) of a vehicle over time: ODOMETER readings of its devices, and the
    -- vehicle's last known odometer.
    create view fleet_contract.vehicle_odometer_v1 as
      select s.vehicle_id, r.recorded_at, r.value::float8 as odometer_km, 'READING'::text as source
        from fleet.readings r
        join fleet.device_vehicle_sessions s
          on s.device_id = r.device_id and r.recorded_at >= s.started_at
         and (s.ended_at is null or r.recorded_at < s.ended_at)
       where r.field = 'ODOMETER'
      union all
      select v.id, coalesce(v.odometer_updated_at, v.updated_at), v.odometer_km::float8, 'VEHICLE'
        from fleet.vehicles v where v.odometer_km is not null;

    create index if not exists trips_vehicle_end_idx on fleet.trips (vehicle_id, ended_at);
    create index if not exists readings_device_field_time_idx on fleet.readings (device_id, field, recorded_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop schema if exists fleet_contract cascade');
}
