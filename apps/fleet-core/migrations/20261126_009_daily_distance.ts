/**
 * fleet.vehicle_daily_distance: per vehicle and UTC day (of the trip's end), the metres driven and
 * the number of trips, published as fleet_contract.vehicle_daily_distance_v1. A reader that needs
 * "km driven over the last N days" sums N rows per vehicle plus the trips of the two partial days
 * at the window's edges, instead of every trip of the window (maintenance's 30-day average read
 * 20 trips per vehicle in the benchmark, and a delivery van makes 30 or more a day).
 *
 * Both measures are sums, so statement-level triggers with transition tables keep them exact
 * incrementally: inserted trips are added (`on conflict do update`, so concurrent imports
 * serialize on the day's row), deleted ones subtracted (a day left with no trip is removed), an
 * update (a trip moved to another vehicle or day, its distance corrected, its vehicle deleted:
 * `on delete set null`) is both, and truncate empties the table. Trips without a vehicle are not
 * counted.
 */
import type { Knex } from 'knex';

/** Per (vehicle, UTC day) sums of `rows` (a relation with fleet.trips' columns). */
const perDay = (rows: string) => `
  select r.vehicle_id, (r.ended_at at time zone 'UTC')::date as day, sum(r.distance_m)::int8 as distance_m,
         count(*)::int as trips
    from ${rows} r
   where r.vehicle_id is not null
   group by 1, 2`;

const ADD = (rows: string) => `
  insert into fleet.vehicle_daily_distance as d (vehicle_id, day, distance_m, trips) ${perDay(rows)}
  on conflict (vehicle_id, day) do update
    set distance_m = d.distance_m + excluded.distance_m, trips = d.trips + excluded.trips;`;

const SUBTRACT = (rows: string) => `
  update fleet.vehicle_daily_distance d
     set distance_m = d.distance_m - g.distance_m, trips = d.trips - g.trips
    from (${perDay(rows)}) g
   where d.vehicle_id = g.vehicle_id and d.day = g.day;
  delete from fleet.vehicle_daily_distance d
   using (${perDay(rows)}) g
   where d.vehicle_id = g.vehicle_id and d.day = g.day and d.trips = 0;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fleet.vehicle_daily_distance (
      vehicle_id uuid not null,
      day date not null,
      distance_m int8 not null check (distance_m >= 0),
      trips int not null check (trips >= 0), -- a day reaching 0 is deleted by the same trigger
      primary key (vehicle_id, day)
    );

    insert into fleet.vehicle_daily_distance (vehicle_id, day, distance_m, trips) ${perDay('fleet.trips')};

    create function fleet.daily_distance_added() returns trigger language plpgsql as $$
    begin
      ${ADD('added')}
      return null;
    end $$;

    create function fleet.daily_distance_removed() returns trigger language plpgsql as $$
    begin
      ${SUBTRACT('gone')}
      return null;
    end $$;

    create function fleet.daily_distance_changed() returns trigger language plpgsql as $$
    begin
      ${SUBTRACT('gone')}
      ${ADD('added')}
      return null;
    end $$;

    create function fleet.daily_distance_cleared() returns trigger language plpgsql as $$
    begin
      truncate fleet.vehicle_daily_distance;
      return null;
    end $$;

    create trigger trips_daily_distance_insert after insert on fleet.trips
      referencing new table as added for each statement execute function fleet.daily_distance_added();
    create trigger trips_daily_distance_delete after delete on fleet.trips
      referencing old table as gone for each statement execute function fleet.daily_distance_removed();
    create trigger trips_daily_distance_update after update on fleet.trips
      referencing old table as gone new table as added
      for each statement execute function fleet.daily_distance_changed();
    create trigger trips_daily_distance_truncate after truncate on fleet.trips
      for each statement execute function fleet.daily_distance_cleared();

    -- Metres driven per vehicle and UTC day (the day a trip ended), and the number of trips.
    create view fleet_contract.vehicle_daily_distance_v1 as
      select vehicle_id, day, distance_m, trips from fleet.vehicle_daily_distance;

    select fleet_contract.make_read_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop view if exists fleet_contract.vehicle_daily_distance_v1;
    drop trigger if exists trips_daily_distance_insert on fleet.trips;
    drop trigger if exists trips_daily_distance_delete on fleet.trips;
    drop trigger if exists trips_daily_distance_update on fleet.trips;
    drop trigger if exists trips_daily_distance_truncate on fleet.trips;
    drop function if exists fleet.daily_distance_added();
    drop function if exists fleet.daily_distance_removed();
    drop function if exists fleet.daily_distance_changed();
    drop function if exists fleet.daily_distance_cleared();
    drop table if exists fleet.vehicle_daily_distance;
  `);
}
