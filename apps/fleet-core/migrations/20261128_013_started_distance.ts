/**
 * fleet.vehicle_started_distance: per vehicle, UTC day and UTC month of the trip's start, the
 * metres driven and the number of trips, published as fleet_contract.vehicle_started_distance_v1.
 * A reader that reports distance by the periods trips started in (mobility's group statistics:
 * "km driven by the vehicles of this group per month") sums a row per vehicle and whole month or
 * day of its range plus the trips of the partial days at its edges, instead of every trip of the
 * range. (vehicle_daily_distance_v1 counts a trip on the day it ended: a trip over midnight falls
 * on another day, so it cannot answer by start.)
 *
 * Kept exact by statement-level triggers with transition tables, as vehicle_daily_distance:
 * inserted trips are added, deleted ones subtracted (a bucket left with no trip is removed), an
 * update is both, truncate empties the table. Trips without a vehicle are not counted.
 */
import type { Knex } from 'knex';
import { dropKeptAggregateTriggers, keptAggregateTriggers } from '@fleetgraph/db';

/** Per (vehicle, level, start of the UTC day or month) sums of `rows` (fleet.trips' columns). */
const perBucket = (rows: string) =>
  ['day', 'month']
    .map(
      (unit) => `
  select r.vehicle_id, '${unit === 'day' ? 'D' : 'M'}'::char(1) as level,
         date_trunc('${unit}', r.started_at at time zone 'UTC') at time zone 'UTC' as period_start,
         sum(r.distance_m)::int8 as distance_m, count(*)::int as trips
    from ${rows} r
   where r.vehicle_id is not null
   group by 1, 2, 3`,
    )
    .join(' union all ');

const ADD = (rows: string) => `
  insert into fleet.vehicle_started_distance as d (vehicle_id, level, period_start, distance_m, trips)
  select * from (${perBucket(rows)}) b order by 1, 2, 3
  on conflict (vehicle_id, level, period_start) do update
    set distance_m = d.distance_m + excluded.distance_m, trips = d.trips + excluded.trips;`;

const SUBTRACT = (rows: string) => `
  update fleet.vehicle_started_distance d
     set distance_m = d.distance_m - g.distance_m, trips = d.trips - g.trips
    from (${perBucket(rows)}) g
   where d.vehicle_id = g.vehicle_id and d.level = g.level and d.period_start = g.period_start;
  delete from fleet.vehicle_started_distance d
   using (${perBucket(rows)}) g
   where d.vehicle_id = g.vehicle_id and d.level = g.level and d.period_start = g.period_start
     and d.trips = 0;`;

const STARTED_DISTANCE = {
  source: 'fleet.trips',
  schema: 'fleet',
  name: 'started_distance',
  onInsert: ADD('added'),
  onDelete: SUBTRACT('gone'),
  onUpdate: `${SUBTRACT('gone')}\n${ADD('added')}`,
  onTruncate: 'truncate fleet.vehicle_started_distance;',
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fleet.vehicle_started_distance (
      vehicle_id uuid not null,
      -- D: a UTC day, M: a UTC month, starting at period_start.
      level char(1) not null check (level in ('D', 'M')),
      period_start timestamptz not null,
      distance_m int8 not null check (distance_m >= 0),
      trips int not null check (trips >= 0), -- a bucket reaching 0 is deleted by the same trigger
      primary key (vehicle_id, level, period_start)
    );

    insert into fleet.vehicle_started_distance (vehicle_id, level, period_start, distance_m, trips)
    ${perBucket('fleet.trips')};

    ${keptAggregateTriggers(STARTED_DISTANCE)}

    -- Metres driven per vehicle and UTC day (level D) or month (level M) the trips started in.
    create view fleet_contract.vehicle_started_distance_v1 as
      select vehicle_id, level, period_start, distance_m, trips from fleet.vehicle_started_distance;

    select fleet_contract.make_read_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop view if exists fleet_contract.vehicle_started_distance_v1;
    ${dropKeptAggregateTriggers(STARTED_DISTANCE)}
    drop table if exists fleet.vehicle_started_distance;
  `);
}
