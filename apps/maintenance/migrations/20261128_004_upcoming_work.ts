/**
 * Upcoming work kept per vehicle and template: the parts that follow the vehicle's facts (cycle,
 * base, deadlines, current mileage, 30-day average, km left and the days they last), so a read
 * computes only what follows the clock (calendar days left, criticality) for the page it shows,
 * walking an index in the order it pages by instead of computing every visible vehicle.
 *
 * - upcoming_vehicles: per vehicle, the fleet-core facts the rows were computed from (the
 *   fingerprint a refresh compares with the contract); upcoming_dirty: vehicles a maintenance
 *   write (service history) touched since, refreshed before the next read.
 * - upcoming_work: the stored parts, with sort keys whose unknown values are LAST (1e15) as the
 *   pages compare them, and `uid`, the item's public id (base64url, byte order: "C").
 * - upcoming_state: the UTC day the 30-day averages were computed for, and `stale` (every
 *   vehicle must be recomputed: a template changed, or the history was truncated).
 * Triggers on maintenance's own tables mark what a write makes stale; fleet-core's facts
 * (odometer, trips, vehicles) are compared on a timer (data/upcoming-store.ts, README).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table maintenance.upcoming_state (
      id int primary key check (id = 1),
      as_of_day date,
      stale boolean not null default true,
      refreshed_at timestamptz
    );
    insert into maintenance.upcoming_state (id) values (1);

    create table maintenance.upcoming_vehicles (
      vehicle_id uuid primary key,
      organization_id uuid not null,
      vehicle_type text,
      fuel_type text,
      created_at timestamptz not null,
      odometer_km float8,
      recent_km float8 not null
    );
    -- vehicles a maintenance write touched since their rows were computed
    create table maintenance.upcoming_dirty (vehicle_id uuid primary key);

    create table maintenance.upcoming_work (
      vehicle_id uuid not null,
      template_id uuid not null,
      organization_id uuid not null,
      uid text collate "C" not null,
      cycle int not null,
      base_mileage_km int8 not null,
      base_date_ms int8 not null,
      mileage_deadline int8,
      date_deadline_ms int8,
      current_mileage_km int8,
      odometer_source text,
      average_daily_km float8 not null,
      remaining_km int8,
      days_by_distance int8,
      -- sort keys, unknown last (1e15), as data/upcoming-page.ts compares them
      dd_key int8 not null,
      km_key int8 not null,
      dist_days_key int8 not null,
      primary key (vehicle_id, template_id)
    );
    -- calendar side of URGENCY, and DATE_DEADLINE
    create index upcoming_work_date_idx on maintenance.upcoming_work (organization_id, dd_key, uid);
    -- distance side of URGENCY
    create index upcoming_work_distance_days_idx
      on maintenance.upcoming_work (organization_id, dist_days_key, km_key, uid);
    -- REMAINING_DISTANCE
    create index upcoming_work_km_idx on maintenance.upcoming_work (organization_id, km_key, uid);
    -- URGENCY's items with neither days estimate (idle vehicle, distance-only template)
    create index upcoming_work_undated_idx on maintenance.upcoming_work (organization_id, km_key, uid)
      where date_deadline_ms is null and days_by_distance is null;

    create function maintenance.upcoming_history_changed() returns trigger language plpgsql as $$
    begin
      insert into maintenance.upcoming_dirty (vehicle_id)
        select distinct vehicle_id from changed on conflict do nothing;
      return null;
    end $$;
    create function maintenance.upcoming_all_stale() returns trigger language plpgsql as $$
    begin
      update maintenance.upcoming_state set stale = true where not stale;
      return null;
    end $$;
    create trigger history_upcoming_insert after insert on maintenance.history
      referencing new table as changed for each statement execute function maintenance.upcoming_history_changed();
    create trigger history_upcoming_delete after delete on maintenance.history
      referencing old table as changed for each statement execute function maintenance.upcoming_history_changed();
    create trigger history_upcoming_update_old after update on maintenance.history
      referencing old table as changed for each statement execute function maintenance.upcoming_history_changed();
    create trigger history_upcoming_update_new after update on maintenance.history
      referencing new table as changed for each statement execute function maintenance.upcoming_history_changed();
    create trigger history_upcoming_truncate after truncate on maintenance.history
      for each statement execute function maintenance.upcoming_all_stale();
    create trigger templates_upcoming after insert or update or delete or truncate on maintenance.templates
      for each statement execute function maintenance.upcoming_all_stale();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists history_upcoming_insert on maintenance.history;
    drop trigger if exists history_upcoming_delete on maintenance.history;
    drop trigger if exists history_upcoming_update_old on maintenance.history;
    drop trigger if exists history_upcoming_update_new on maintenance.history;
    drop trigger if exists history_upcoming_truncate on maintenance.history;
    drop trigger if exists templates_upcoming on maintenance.templates;
    drop function if exists maintenance.upcoming_history_changed();
    drop function if exists maintenance.upcoming_all_stale();
    drop table if exists maintenance.upcoming_work;
    drop table if exists maintenance.upcoming_vehicles;
    drop table if exists maintenance.upcoming_dirty;
    drop table if exists maintenance.upcoming_state;
  `);
}
