/**
 * fleet schema, first cut: organizations, accounts, the group hierarchy (parents + closure),
 * memberships, products, devices, vehicles and device-vehicle sessions.
 * Ids: accounts use the SSO user id (uuid); devices use their IMEI (text); others uuid.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fleet.organizations (
      id uuid primary key,
      name text not null,
      created_at timestamptz not null default now()
    );

    create table fleet.accounts (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      email text not null unique,
      phone text,
      full_name text not null,
      short_name text,
      company_name text,
      country_code text,
      language text not null default 'EN',
      time_zone text not null default 'UTC',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_sign_in_at timestamptz,
      confirmed_at timestamptz
    );
    create index accounts_org_idx on fleet.accounts (organization_id);

    create table fleet.groups (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      label text not null,
      tags text[] not null default '{}',
      hierarchy_level text not null default 'UNASSIGNED',
      owner_id uuid references fleet.accounts(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index groups_org_idx on fleet.groups (organization_id);
    create index groups_label_idx on fleet.groups (label, id);

    create table fleet.group_parents (
      group_id uuid not null references fleet.groups(id) on delete cascade,
      parent_id uuid not null references fleet.groups(id) on delete cascade,
      primary key (group_id, parent_id),
      check (group_id <> parent_id)
    );
    create index group_parents_parent_idx on fleet.group_parents (parent_id, group_id);

    create table fleet.group_closure (
      ancestor_id uuid not null references fleet.groups(id) on delete cascade,
      descendant_id uuid not null references fleet.groups(id) on delete cascade,
      depth int not null,
      primary key (ancestor_id, descendant_id)
    );
    create index group_closure_descendant_idx on fleet.group_closure (descendant_id, ancestor_id);

    create table fleet.group_accounts (
      group_id uuid not null references fleet.groups(id) on delete cascade,
      account_id uuid not null references fleet.accounts(id) on delete cascade,
      primary key (group_id, account_id)
    );
    create index group_accounts_account_idx on fleet.group_accounts (account_id, group_id);

    create table fleet.products (
      id uuid primary key,
      name text not null unique,
      network text not null,
      market text not null,
      has_wifi boolean not null default false,
      has_bluetooth boolean not null default false
    );

    create table fleet.vehicles (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      vin text,
      plate text,
      make text,
      model text,
      model_year int,
      fuel_type text not null default 'OTHER',
      color text,
      odometer_km int,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index vehicles_org_idx on fleet.vehicles (organization_id);
    create index vehicles_vin_idx on fleet.vehicles (vin);
    create index vehicles_plate_idx on fleet.vehicles (plate);

    create table fleet.devices (
      id text primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      active_account text,
      device_type text not null,
      serial_number text,
      onboarded boolean not null default false,
      owner_id uuid references fleet.accounts(id) on delete set null,
      product_id uuid references fleet.products(id),
      current_vehicle_id uuid references fleet.vehicles(id) on delete set null,
      status text not null default 'DISCONNECTED',
      first_connection_at timestamptz,
      last_connection_at timestamptz,
      last_disconnection_at timestamptz,
      last_activity_at timestamptz,
      last_connection_reason text,
      last_disconnection_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index devices_org_idx on fleet.devices (organization_id);
    create index devices_owner_idx on fleet.devices (owner_id);
    create index devices_vehicle_idx on fleet.devices (current_vehicle_id);

    create table fleet.group_devices (
      group_id uuid not null references fleet.groups(id) on delete cascade,
      device_id text not null references fleet.devices(id) on delete cascade,
      primary key (group_id, device_id)
    );
    create index group_devices_device_idx on fleet.group_devices (device_id, group_id);

    create table fleet.group_vehicles (
      group_id uuid not null references fleet.groups(id) on delete cascade,
      vehicle_id uuid not null references fleet.vehicles(id) on delete cascade,
      primary key (group_id, vehicle_id)
    );
    create index group_vehicles_vehicle_idx on fleet.group_vehicles (vehicle_id, group_id);

    create table fleet.device_vehicle_sessions (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      vehicle_id uuid not null references fleet.vehicles(id) on delete cascade,
      started_at timestamptz not null,
      ended_at timestamptz
    );
    create index dvs_device_idx on fleet.device_vehicle_sessions (device_id, vehicle_id);
    create index dvs_vehicle_idx on fleet.device_vehicle_sessions (vehicle_id, device_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists fleet.device_vehicle_sessions, fleet.group_vehicles, fleet.group_devices, fleet.devices,
      fleet.vehicles, fleet.products, fleet.group_accounts, fleet.group_closure, fleet.group_parents, fleet.groups,
      fleet.accounts, fleet.organizations cascade;
  `);
}
