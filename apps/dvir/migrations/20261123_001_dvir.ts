/**
 * dvir schema: templates (one row per template version), their items, reports taken against one
 * template version, answers snapshotting the item as it was, defects and attachments.
 *
 * Visibility columns (organization_id, vehicle_id, group_id) are copied onto answers, defects and
 * attachments so that every list filters by the same predicate without joining the report.
 * Autovacuum is off on the target: PostgreSQL plans without statistics, so every filter + keyset
 * order a list pages on has a composite index in exactly that order; the planner then picks it
 * for `where filter = ? order by keyset limit n` whatever it knows about the data.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table dvir.inspection_templates (
      id uuid not null,
      version int not null check (version >= 1),
      organization_id uuid,
      group_id uuid,
      name text not null,
      description text,
      active boolean not null default true,
      latest boolean not null default true,
      vehicle_type text not null default 'CAR',
      signature_required boolean not null default true,
      default_language text not null default 'EN',
      translations jsonb not null default '{}'::jsonb,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      primary key (id, version)
    );
    create unique index inspection_templates_one_latest on dvir.inspection_templates (id) where latest;
    create index inspection_templates_name_idx on dvir.inspection_templates (latest, name, id, version);
    create index inspection_templates_group_idx on dvir.inspection_templates (group_id, latest, name, id, version);
    create index inspection_templates_org_idx on dvir.inspection_templates (organization_id, latest, name, id, version);

    create table dvir.inspection_items (
      id uuid primary key,
      template_id uuid not null,
      template_version int not null,
      order_position int not null,
      category text not null,
      name text not null,
      description text,
      required boolean not null default true,
      comment_requirement boolean not null default true,
      comment_on_success boolean not null default false,
      photo_count_min int not null default 0 check (photo_count_min >= 0),
      photo_count_max int not null default 3 check (photo_count_max >= photo_count_min),
      translations jsonb not null default '{}'::jsonb,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      foreign key (template_id, template_version) references dvir.inspection_templates (id, version),
      unique (template_id, template_version, order_position)
    );
    create index inspection_items_template_idx on dvir.inspection_items (template_id, template_version, order_position, id);

    create table dvir.inspection_reports (
      id uuid primary key,
      organization_id uuid not null,
      vehicle_id uuid not null,
      group_id uuid,
      driver_id uuid,
      template_id uuid not null,
      template_version int not null,
      default_language text not null default 'EN',
      vehicle_type text not null default 'CAR',
      workflow_status text not null,
      status text not null,
      inspection_type text not null,
      odometer int,
      fuel_level int check (fuel_level between 0 and 100),
      driver_signature_date timestamptz(3),
      location_lat double precision,
      location_lng double precision,
      location_address text,
      started_at timestamptz(3) not null,
      completed_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      foreign key (template_id, template_version) references dvir.inspection_templates (id, version)
    );
    create index inspection_reports_time_idx on dvir.inspection_reports (started_at desc, id desc);
    create index inspection_reports_vehicle_idx on dvir.inspection_reports (vehicle_id, started_at desc, id desc);
    create index inspection_reports_group_idx on dvir.inspection_reports (group_id, started_at desc, id desc);
    create index inspection_reports_driver_idx on dvir.inspection_reports (driver_id, started_at desc, id desc);
    create index inspection_reports_status_idx on dvir.inspection_reports (status, started_at desc, id desc);
    create index inspection_reports_workflow_idx on dvir.inspection_reports (workflow_status, started_at desc, id desc);
    create index inspection_reports_type_idx on dvir.inspection_reports (inspection_type, started_at desc, id desc);

    create table dvir.inspection_answers (
      id uuid primary key,
      report_id uuid not null references dvir.inspection_reports (id) on delete cascade,
      organization_id uuid not null,
      vehicle_id uuid not null,
      group_id uuid,
      item_id uuid not null references dvir.inspection_items (id),
      result text not null,
      comment text,
      language text not null default 'EN',
      item_name text not null,
      item_description text,
      item_category text not null,
      item_order_position int not null,
      item_translations jsonb not null default '{}'::jsonb,
      photo_count_min int not null default 0,
      photo_count_max int not null default 3,
      item_required boolean not null default true,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    );
    create index inspection_answers_report_idx on dvir.inspection_answers (report_id, item_order_position, id);

    create table dvir.defects (
      id uuid primary key,
      organization_id uuid not null,
      vehicle_id uuid not null,
      group_id uuid,
      description text not null,
      status text not null,
      out_of_service boolean not null default false,
      inspection_item_id uuid references dvir.inspection_items (id),
      inspection_answer_id uuid references dvir.inspection_answers (id) on delete cascade,
      reported_in_report_id uuid references dvir.inspection_reports (id) on delete cascade,
      reported_by_driver_id uuid,
      resolution text,
      resolved_by_user_id uuid,
      resolved_in_report_id uuid references dvir.inspection_reports (id),
      mechanic_name text,
      resolved_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      check ((status in ('RESOLVED', 'NOT_NEEDING_REPAIR')) = (resolved_at is not null))
    );
    create index defects_time_idx on dvir.defects (created_at desc, id desc);
    create index defects_vehicle_idx on dvir.defects (vehicle_id, created_at desc, id desc);
    create index defects_vehicle_status_idx on dvir.defects (vehicle_id, status, created_at desc, id desc);
    create index defects_status_idx on dvir.defects (status, created_at desc, id desc);
    create index defects_item_idx on dvir.defects (inspection_item_id, created_at desc, id desc);
    create index defects_report_idx on dvir.defects (reported_in_report_id, created_at desc, id desc);
    create index defects_answer_idx on dvir.defects (inspection_answer_id);

    create table dvir.attachments (
      id uuid primary key,
      organization_id uuid not null,
      vehicle_id uuid not null,
      group_id uuid,
      attachable_type text not null check (attachable_type in ('InspectionReport', 'InspectionAnswer', 'Defect')),
      attachable_id uuid not null,
      kind text not null,
      filename text not null,
      content_type text not null,
      byte_size int not null default 0,
      sha256 text,
      storage_key text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    );
    create index attachments_owner_idx on dvir.attachments (attachable_id, attachable_type, created_at, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists dvir.attachments;
    drop table if exists dvir.defects;
    drop table if exists dvir.inspection_answers;
    drop table if exists dvir.inspection_reports;
    drop table if exists dvir.inspection_items;
    drop table if exists dvir.inspection_templates;
  `);
}
