/**
 * fleet_contract.vehicle_latest_odometer_v1: each vehicle's latest odometer (km), the newest row
 * vehicle_odometer_v1 would give it (recorded_at desc, then odometer_km desc), one row per vehicle
 * that has any.
 *
 * Why a view of its own: "the latest row of vehicle_odometer_v1" cannot be pushed below that
 * view's join of readings and sessions, so PostgreSQL read and sorted every ODOMETER reading the
 * vehicle ever had (measured: 50-83 ms for one vehicle with 200,000 readings, for one vehicle of
 * maintenance's upcoming work). Here each device session is one backward index scan of
 * readings_device_field_time_idx, bounded above by the session's end, stopping at its first
 * entry, then one equality probe for the highest value at that instant (the tie-break): the cost
 * follows the number of sessions, never the number of readings. A single `order by recorded_at
 * desc, value desc limit 1` would sort every reading of the session (the second key defeats the
 * index order).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create view fleet_contract.vehicle_latest_odometer_v1 as
      select v.id as vehicle_id, o.recorded_at, o.odometer_km, o.source
        from fleet.vehicles v
        cross join lateral (
          select c.recorded_at, c.odometer_km, c.source
            from (
              select r.recorded_at,
                     (select max(t.value) from fleet.readings t
                       where t.device_id = s.device_id and t.field = 'ODOMETER'
                         and t.recorded_at = r.recorded_at)::float8 as odometer_km,
                     'READING'::text as source
                from fleet.device_vehicle_sessions s
                cross join lateral (
                  select r.recorded_at
                    from fleet.readings r
                   where r.device_id = s.device_id and r.field = 'ODOMETER'
                     and r.recorded_at >= s.started_at
                     and r.recorded_at < coalesce(s.ended_at, 'infinity'::timestamptz)
                   order by r.recorded_at desc
                   limit 1) r
               where s.vehicle_id = v.id
              union all
              select coalesce(v.odometer_updated_at, v.updated_at), v.odometer_km::float8, 'VEHICLE'
               where v.odometer_km is not null
            ) c
           order by c.recorded_at desc, c.odometer_km desc
           limit 1) o;

    select fleet_contract.make_read_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop view if exists fleet_contract.vehicle_latest_odometer_v1');
}
