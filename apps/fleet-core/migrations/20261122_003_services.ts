/**
 * fleet schema, services domains: descriptions, alert templates and attachments, vehicle alerts and
 * their feedbacks, account roles and alert preferences, workshops, driver services, bookings,
 * onboarding providers / distributors / staff / requests, client identifications, update
 * campaigns, metrics and log-fetch catalogs, device log fetches, remote diagnostics, profile
 * privacy and device modes, and eSIM (LPA) operations.
 *
 * Organization-scoped rows carry organization_id; catalogs (workshops, onboarding providers,
 * metrics, log-fetch actions) are global.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fleet.descriptions (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      subject text not null,
      subject_id text not null,
      label text not null,
      value text not null,
      source text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index descriptions_subject_idx on fleet.descriptions (subject, subject_id, label, id);

    create table fleet.account_roles (
      account_id uuid not null references fleet.accounts(id) on delete cascade,
      role text not null,
      granted_at timestamptz not null default now(),
      granted_by uuid references fleet.accounts(id) on delete set null,
      primary key (account_id, role)
    );

    create table fleet.account_alert_preferences (
      account_id uuid primary key references fleet.accounts(id) on delete cascade,
      channels text[] not null default '{EMAIL}',
      minimum_severity text not null default 'WARNING',
      digest text not null default 'NONE',
      language text,
      quiet_hours_start text,
      quiet_hours_end text,
      muted_types text[] not null default '{}',
      updated_at timestamptz not null default now()
    );

    create table fleet.alert_templates (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      name text not null,
      version text not null,
      content_type text not null default 'TEXT',
      default_context jsonb not null default '{}',
      locked boolean not null default false,
      channel_name text not null,
      definition text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index alert_templates_org_idx on fleet.alert_templates (organization_id, name, id);

    create table fleet.alert_attachments (
      id uuid primary key,
      template_id uuid not null references fleet.alert_templates(id) on delete cascade,
      filename text not null,
      content_type text not null,
      byte_size int not null,
      url text not null,
      created_at timestamptz not null default now()
    );
    create index alert_attachments_template_idx on fleet.alert_attachments (template_id, filename, id);

    create table fleet.vehicle_alerts (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      device_id text not null references fleet.devices(id) on delete cascade,
      vehicle_id uuid references fleet.vehicles(id) on delete set null,
      type text not null,
      severity text not null,
      status text not null,
      message text not null,
      started_at timestamptz not null,
      ended_at timestamptz,
      latitude double precision,
      longitude double precision,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index vehicle_alerts_device_idx on fleet.vehicle_alerts (device_id, started_at desc, id desc);

    create table fleet.vehicle_alert_feedbacks (
      id uuid primary key,
      alert_id uuid not null references fleet.vehicle_alerts(id) on delete cascade,
      account_id uuid references fleet.accounts(id) on delete set null,
      status text not null,
      language text not null,
      comment text,
      created_at timestamptz not null default now()
    );
    create index vehicle_alert_feedbacks_alert_idx on fleet.vehicle_alert_feedbacks (alert_id, created_at desc, id desc);

    create table fleet.workshops (
      id uuid primary key,
      name text not null,
      address text,
      postal_code text,
      city text not null,
      country_code text not null,
      phone text,
      email text,
      website text,
      latitude double precision,
      longitude double precision,
      created_at timestamptz not null default now()
    );
    create index workshops_name_idx on fleet.workshops (name, id);

    create table fleet.organization_workshops (
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      workshop_id uuid not null references fleet.workshops(id) on delete cascade,
      primary key (organization_id, workshop_id)
    );

    create table fleet.driver_services (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      label text not null,
      description text,
      created_at timestamptz not null default now()
    );
    create index driver_services_org_idx on fleet.driver_services (organization_id, label, id);

    create table fleet.driver_service_workshops (
      driver_service_id uuid not null references fleet.driver_services(id) on delete cascade,
      workshop_id uuid not null references fleet.workshops(id) on delete cascade,
      primary key (driver_service_id, workshop_id)
    );

    create table fleet.bookings (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      account_id uuid references fleet.accounts(id) on delete set null,
      vehicle_id uuid references fleet.vehicles(id) on delete set null,
      workshop_id uuid references fleet.workshops(id) on delete set null,
      plate_number text,
      booking_date timestamptz not null,
      status text not null default 'PENDING',
      quotation_ids text[] not null default '{}',
      vehicle_make text,
      vehicle_model text,
      vehicle_year text,
      vin text,
      city text,
      country text,
      additional_information text,
      preferred_language text,
      contact_method text,
      user_email text,
      user_name text,
      user_phone_number text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index bookings_org_idx on fleet.bookings (organization_id, booking_date desc, id desc);

    create table fleet.onboarding_providers (
      id uuid primary key,
      code text not null unique,
      name text not null,
      website text,
      support_email text
    );

    create table fleet.onboarding_distributors (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      label text not null,
      provider_id uuid references fleet.onboarding_providers(id),
      is_active boolean not null default true,
      workshop_id uuid references fleet.workshops(id) on delete set null,
      provider_workshop_id text,
      created_at timestamptz not null default now()
    );
    create index onboarding_distributors_org_idx on fleet.onboarding_distributors (organization_id, label, id);

    create table fleet.onboarding_staff (
      id uuid primary key,
      distributor_id uuid not null references fleet.onboarding_distributors(id) on delete cascade,
      full_name text not null,
      email text,
      phone text,
      role text not null,
      active boolean not null default true,
      created_at timestamptz not null default now()
    );
    create index onboarding_staff_distributor_idx on fleet.onboarding_staff (distributor_id, full_name, id);

    create table fleet.onboarding_requests (
      id uuid primary key,
      distributor_id uuid not null references fleet.onboarding_distributors(id) on delete cascade,
      device_id text references fleet.devices(id) on delete set null,
      status text not null,
      plate text,
      vin text,
      notes text,
      requested_at timestamptz not null,
      scheduled_at timestamptz,
      completed_at timestamptz
    );
    create index onboarding_requests_distributor_idx on fleet.onboarding_requests (distributor_id, requested_at desc, id desc);

    create table fleet.client_identifications (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      code text not null,
      label text not null,
      distributor_id uuid references fleet.onboarding_distributors(id) on delete set null,
      client_reference text,
      default_account_id uuid references fleet.accounts(id) on delete set null,
      usable boolean not null default true,
      revoked boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (organization_id, code)
    );
    create index client_identifications_org_idx on fleet.client_identifications (organization_id, code, id);

    create table fleet.campaigns (
      id uuid primary key,
      organization_id uuid not null references fleet.organizations(id) on delete cascade,
      name text not null,
      status text not null,
      configurations text[] not null default '{}',
      archived_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index campaigns_org_idx on fleet.campaigns (organization_id, created_at desc, id desc);

    create table fleet.campaign_devices (
      campaign_id uuid not null references fleet.campaigns(id) on delete cascade,
      device_id text not null references fleet.devices(id) on delete cascade,
      status text not null,
      error_message text,
      updated_at timestamptz not null default now(),
      primary key (campaign_id, device_id)
    );

    create table fleet.metrics (
      id text primary key,
      name text not null unique,
      description text not null,
      category text not null,
      data_type text not null,
      unit text,
      raw_unit text,
      raw_factor double precision not null default 1
    );

    create table fleet.logfetch_actions (
      id text primary key,
      name text not null,
      description text not null,
      default_duration_minutes int,
      position int not null
    );

    create table fleet.device_log_fetches (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      action_id text not null references fleet.logfetch_actions(id),
      status text not null,
      requested_by uuid references fleet.accounts(id) on delete set null,
      requested_at timestamptz not null,
      completed_at timestamptz,
      byte_size int,
      file_url text
    );
    create index device_log_fetches_device_idx on fleet.device_log_fetches (device_id, requested_at desc, id desc);

    create table fleet.device_remote_diags (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      status text not null,
      protocol text,
      requested_at timestamptz not null,
      completed_at timestamptz,
      dtc_codes text[] not null default '{}',
      vin text,
      battery_voltage double precision,
      odometer_km int
    );
    create index device_remote_diags_device_idx on fleet.device_remote_diags (device_id, requested_at desc, id desc);

    create table fleet.device_profile_privacies (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      level text not null,
      started_at timestamptz not null,
      ended_at timestamptz
    );
    create index device_profile_privacies_device_idx on fleet.device_profile_privacies (device_id, started_at desc, id desc);

    create table fleet.device_profile_modes (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      mode text not null,
      started_at timestamptz not null,
      ended_at timestamptz
    );
    create index device_profile_modes_device_idx on fleet.device_profile_modes (device_id, started_at desc, id desc);

    create table fleet.lpa_operations (
      id uuid primary key,
      device_id text not null references fleet.devices(id) on delete cascade,
      function_name text not null,
      status text not null,
      iccid text,
      activation_code text,
      smdp_address text,
      matching_id text,
      nickname text,
      has_confirmation_code boolean not null default false,
      requested_at timestamptz not null,
      updated_at timestamptz not null default now()
    );
    create index lpa_operations_device_idx on fleet.lpa_operations (device_id, function_name, requested_at desc);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists fleet.lpa_operations, fleet.device_profile_modes, fleet.device_profile_privacies,
      fleet.device_remote_diags, fleet.device_log_fetches, fleet.logfetch_actions, fleet.metrics,
      fleet.campaign_devices, fleet.campaigns, fleet.client_identifications, fleet.onboarding_requests,
      fleet.onboarding_staff, fleet.onboarding_distributors, fleet.onboarding_providers, fleet.bookings,
      fleet.driver_service_workshops, fleet.driver_services, fleet.organization_workshops, fleet.workshops,
      fleet.vehicle_alert_feedbacks, fleet.vehicle_alerts, fleet.alert_attachments, fleet.alert_templates,
      fleet.account_alert_preferences, fleet.account_roles, fleet.descriptions cascade;
  `);
}
