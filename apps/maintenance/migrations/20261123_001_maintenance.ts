/**
 * maintenance schema: service templates (schedules), criticality thresholds and service history.
 * Upcoming work is not stored: it is computed per request from these tables and fleet-core's
 * contract (odometer readings, trips), see src/domain/upcoming.ts.
 *
 * Global rows have organization_id null (a manufacturer-style catalog, default thresholds);
 * an organization's own rows carry its id. Indexes follow every filter and keyset order, since
 * plans must be good without statistics (autovacuum may be off).
 */
import type { Knex } from 'knex';

export const SYSTEMS = [
  'ENGINE',
  'BRAKES',
  'TIRES',
  'TRANSMISSION',
  'COOLING',
  'ELECTRICAL',
  'FILTERS',
  'BODY',
  'INSPECTION',
  'SUSPENSION',
  'STEERING',
  'EXHAUST',
  'HVAC',
  'FLUIDS',
  'HIGH_VOLTAGE',
  'SAFETY',
  'OTHER',
] as const;

/** Global defaults: OVERDUE (deadline reached), DUE_SOON (within 1,000 km or 14 days), PLANNED (the rest). */
export const DEFAULT_THRESHOLDS = [
  {
    id: '7e500000-0000-4000-8000-000000000003',
    organization_id: null,
    code: 'OVERDUE',
    criticality: 3,
    remaining_distance_km: 0,
    remaining_days: 0,
    description: 'Overdue: the distance or the date deadline is reached or passed.',
  },
  {
    id: '7e500000-0000-4000-8000-000000000002',
    organization_id: null,
    code: 'DUE_SOON',
    criticality: 2,
    remaining_distance_km: 1000,
    remaining_days: 14,
    description: 'Due soon: within 1,000 km or 14 days of driving.',
  },
  {
    id: '7e500000-0000-4000-8000-000000000001',
    organization_id: null,
    code: 'PLANNED',
    criticality: 1,
    remaining_distance_km: null,
    remaining_days: null,
    description: 'Planned: scheduled, not yet due soon.',
  },
];

export async function up(knex: Knex): Promise<void> {
  const systems = SYSTEMS.map((s) => `'${s}'`).join(', ');
  await knex.raw(`
    create table maintenance.templates (
      id uuid primary key,
      organization_id uuid,
      description text not null check (length(description) between 1 and 500),
      system text not null check (system in (${systems})),
      from_external_service boolean not null default false,
      external_id text,
      interval_km int check (interval_km > 0),
      interval_months int check (interval_months > 0),
      interval_days int check (interval_days > 0),
      vehicle_types text[],
      fuel_types text[],
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      check (interval_km is not null or interval_months is not null or interval_days is not null)
    );
    create index templates_org_idx on maintenance.templates (organization_id, id);
    create index templates_global_idx on maintenance.templates (id) where organization_id is null;
    -- maintenanceTemplates keyset order
    create index templates_description_idx on maintenance.templates (description, id);

    create table maintenance.criticality_thresholds (
      id uuid primary key,
      organization_id uuid,
      code text not null check (code ~ '^[A-Z][A-Z0-9_]{0,39}$'),
      criticality int not null check (criticality between 1 and 9),
      remaining_distance_km int,
      remaining_days int,
      description text not null check (length(description) between 1 and 500),
      created_at timestamptz(3) not null default now(),
      unique nulls not distinct (organization_id, criticality)
    );
    create index thresholds_org_order_idx
      on maintenance.criticality_thresholds (organization_id, criticality desc, id desc);

    create table maintenance.history (
      id uuid primary key,
      vehicle_id uuid not null,
      template_id uuid not null references maintenance.templates(id) on delete restrict,
      mileage_km int not null check (mileage_km >= 0),
      done_at timestamptz(3) not null,
      notes text,
      from_external_service boolean not null default false,
      created_at timestamptz(3) not null default now()
    );
    -- the last service per (vehicle, template) and the vehicle's history newest first
    create index history_vehicle_template_idx on maintenance.history (vehicle_id, template_id, done_at desc, id desc);
    create index history_vehicle_done_idx on maintenance.history (vehicle_id, done_at desc, id desc);
    create index history_template_idx on maintenance.history (template_id);
    -- maintenanceHistoricals keyset order (newest first) over every visible vehicle
    create index history_done_idx on maintenance.history (done_at desc, id desc);
  `);
  // The global default thresholds (in force for an organization that has none of its own).
  await knex('maintenance.criticality_thresholds').insert(DEFAULT_THRESHOLDS);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists maintenance.history;
    drop table if exists maintenance.criticality_thresholds;
    drop table if exists maintenance.templates;
  `);
}
