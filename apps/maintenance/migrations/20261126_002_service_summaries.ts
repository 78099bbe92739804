/**
 * Service summaries: per (vehicle, template), the number of services, the last one (by done_at,
 * then id) and the highest mileage, kept by triggers on maintenance.history so that upcoming work
 * reads one row per pair instead of aggregating the whole history on every request. Before this,
 * the aggregation (an ordered array_agg per pair) cost ~4 ms of PostgreSQL for the demo's 60
 * vehicles and 4,800 services, and grew with every service ever recorded; now the read grows with
 * vehicles x templates only.
 *
 * Kept exact by statement-level triggers with transition tables:
 * - insert: the new rows are aggregated per pair and merged into the summary (count added, last
 *   and maximum compared), with `on conflict do update`, so concurrent imports serialize on the
 *   pair's row and never lose a count;
 * - update and delete (operators' SQL; the API never does either): the touched pairs are
 *   recomputed from the table, and a pair with no services left is removed;
 * - truncate empties the summaries.
 */
import type { Knex } from 'knex';

const COLUMNS = 'vehicle_id, template_id, services, last_id, last_done_at, last_mileage_km, max_mileage_km';

/** The summary of `rows` (a relation with history's columns) per pair. */
const aggregate = (rows: string) => `
  select r.vehicle_id, r.template_id, count(*)::int,
         (array_agg(r.id order by r.done_at desc, r.id desc))[1],
         max(r.done_at),
         (array_agg(r.mileage_km order by r.done_at desc, r.id desc))[1],
         max(r.mileage_km)
    from ${rows} r
   group by r.vehicle_id, r.template_id`;

/** Recomputes the pairs named in `pairs` (a query of vehicle_id, template_id) from the table. */
const recompute = (pairs: string) => `
  insert into maintenance.service_summaries as s (${COLUMNS})
  ${aggregate(`(select h.* from maintenance.history h
                 where (h.vehicle_id, h.template_id) in (${pairs}))`)}
  on conflict (vehicle_id, template_id) do update set
    services = excluded.services, last_id = excluded.last_id, last_done_at = excluded.last_done_at,
    last_mileage_km = excluded.last_mileage_km, max_mileage_km = excluded.max_mileage_km;
  delete from maintenance.service_summaries s
   where (s.vehicle_id, s.template_id) in (${pairs})
     and not exists (select 1 from maintenance.history h
                      where h.vehicle_id = s.vehicle_id and h.template_id = s.template_id);`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table maintenance.service_summaries (
      vehicle_id uuid not null,
      template_id uuid not null,
      services int not null check (services > 0),
      last_id uuid not null,
      last_done_at timestamptz(3) not null,
      last_mileage_km int not null,
      max_mileage_km int not null,
      primary key (vehicle_id, template_id)
    );

    insert into maintenance.service_summaries (${COLUMNS}) ${aggregate('maintenance.history')};

    create function maintenance.service_summaries_add() returns trigger language plpgsql as $$
    begin
      -- In the set list, s.* is the row before this update: the comparisons see the old last.
      insert into maintenance.service_summaries as s (${COLUMNS}) ${aggregate('added')}
      on conflict (vehicle_id, template_id) do update set
        services = s.services + excluded.services,
        last_id = case when (excluded.last_done_at, excluded.last_id) > (s.last_done_at, s.last_id)
                       then excluded.last_id else s.last_id end,
        last_mileage_km = case when (excluded.last_done_at, excluded.last_id) > (s.last_done_at, s.last_id)
                               then excluded.last_mileage_km else s.last_mileage_km end,
        last_done_at = greatest(s.last_done_at, excluded.last_done_at),
        max_mileage_km = greatest(s.max_mileage_km, excluded.max_mileage_km);
      return null;
    end $$;

    create function maintenance.service_summaries_removed() returns trigger language plpgsql as $$
    begin
      ${recompute('select g.vehicle_id, g.template_id from gone g')}
      return null;
    end $$;

    create function maintenance.service_summaries_changed() returns trigger language plpgsql as $$
    begin
      ${recompute(
        'select g.vehicle_id, g.template_id from gone g union select a.vehicle_id, a.template_id from added a',
      )}
      return null;
    end $$;

    create function maintenance.service_summaries_cleared() returns trigger language plpgsql as $$
    begin
      truncate maintenance.service_summaries;
      return null;
    end $$;

    create trigger history_summaries_insert after insert on maintenance.history
      referencing new table as added for each statement execute function maintenance.service_summaries_add();
    create trigger history_summaries_delete after delete on maintenance.history
      referencing old table as gone for each statement execute function maintenance.service_summaries_removed();
    create trigger history_summaries_update after update on maintenance.history
      referencing old table as gone new table as added
      for each statement execute function maintenance.service_summaries_changed();
    create trigger history_summaries_truncate after truncate on maintenance.history
      for each statement execute function maintenance.service_summaries_cleared();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists history_summaries_insert on maintenance.history;
    drop trigger if exists history_summaries_delete on maintenance.history;
    drop trigger if exists history_summaries_update on maintenance.history;
    drop trigger if exists history_summaries_truncate on maintenance.history;
    drop function if exists maintenance.service_summaries_add();
    drop function if exists maintenance.service_summaries_removed();
    drop function if exists maintenance.service_summaries_changed();
    drop function if exists maintenance.service_summaries_cleared();
    drop table if exists maintenance.service_summaries;
  `);
}
