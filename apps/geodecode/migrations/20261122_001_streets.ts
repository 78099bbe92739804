/**
 * geo schema: streets (one row per named or unnamed way, split into short segments) and address
 * points. PostGIS is not available, so radius search uses a "latitude band" btree:
 *   lat_band = floor(lat * 100)  (0.01 degree, about 1.11 km of latitude)
 *   index (lat_band, lng)
 * A search lists the bands its bounding box covers (`lat_band = any(...)`) and a longitude range,
 * which PostgreSQL answers with one tight index range scan per band; exact distances are then
 * computed in SQL on the few rows left. Segments are cut to at most 200 m at import so that a
 * segment indexed by its midpoint is found by expanding the box by 100 m.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table geo.streets (
      id bigserial primary key,
      name text,
      highway text,
      postal_code text,
      city text,
      county text,
      state text,
      source_id text,
      created_at timestamptz not null default now()
    );

    create table geo.street_segments (
      id bigserial primary key,
      street_id bigint not null references geo.streets(id) on delete cascade,
      lat1 double precision not null,
      lng1 double precision not null,
      lat2 double precision not null,
      lng2 double precision not null,
      lat double precision not null,
      lng double precision not null,
      lat_band integer not null,
      check (lat between -90 and 90 and lng between -180 and 180)
    );
    create index street_segments_band_idx on geo.street_segments (lat_band, lng);
    create index street_segments_street_idx on geo.street_segments (street_id);

    create table geo.addresses (
      id bigserial primary key,
      street text,
      house_number text,
      postal_code text,
      city text,
      county text,
      state text,
      lat double precision not null,
      lng double precision not null,
      lat_band integer not null,
      source_id text,
      created_at timestamptz not null default now(),
      check (lat between -90 and 90 and lng between -180 and 180)
    );
    create index addresses_band_idx on geo.addresses (lat_band, lng);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'drop table if exists geo.addresses; drop table if exists geo.street_segments; drop table if exists geo.streets;',
  );
}
