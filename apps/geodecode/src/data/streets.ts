/**
 * Street and address matches around a point, from geo.street_segments/geo.streets and
 * geo.addresses. The box around the point is turned into latitude bands plus a longitude range
 * (index (lat_band, lng), see the migration); distances are computed in SQL in a local flat
 * projection around the point (meters; under 0.5 % error at 50 km), ordered and limited there.
 */
import type { Knex } from 'knex';
import { latBand, metersPerDegree } from '../domain/distance';

/** Segments are cut to at most this length at import; the box grows by half of it. */
export const MAX_SEGMENT_M = 200;

export interface StreetMatch {
  kind: 'ADDRESS' | 'STREET';
  street: string | null;
  houseNumber: string | null;
  postalCode: string | null;
  city: string | null;
  county: string | null;
  state: string | null;
  lat: number;
  lng: number;
  distance: number;
}

export interface StreetQuery {
  lat: number;
  lng: number;
  radius: number;
  limit: number;
  namedOnly: boolean;
}

function box(q: StreetQuery, margin: number) {
  const { kx, ky } = metersPerDegree(q.lat);
  const dLat = (q.radius + margin) / ky;
  const dLng = Math.min(180, (q.radius + margin) / kx);
  const first = latBand(Math.max(-90, q.lat - dLat));
  const last = latBand(Math.min(90, q.lat + dLat));
  const bands: number[] = [];
  for (let b = first; b <= last; b++) bands.push(b);
  return { kx, ky, bands, minLng: q.lng - dLng, maxLng: q.lng + dLng };
}

const columns = 'postal_code as "postalCode", city, county, state';

export async function findAddresses(knex: Knex, q: StreetQuery): Promise<StreetMatch[]> {
  const b = box(q, 0);
  const rows = await knex.raw<{ rows: StreetMatch[] }>(
    `select * from (
       select 'ADDRESS' as kind, street, house_number as "houseNumber", ${columns}, lat, lng,
              sqrt(((lng - :lng) * :kx) ^ 2 + ((lat - :lat) * :ky) ^ 2) as distance
         from geo.addresses
        where lat_band = any(:bands) and lng between :minLng and :maxLng
          ${q.namedOnly ? `and coalesce(street, '') <> ''` : ''}
     ) a
     where distance <= :radius
     order by distance, "houseNumber"
     limit :limit`,
    {
      lat: q.lat,
      lng: q.lng,
      kx: b.kx,
      ky: b.ky,
      bands: b.bands,
      minLng: b.minLng,
      maxLng: b.maxLng,
      radius: q.radius,
      limit: q.limit,
    },
  );
  return rows.rows;
}

export async function findStreets(knex: Knex, q: StreetQuery): Promise<StreetMatch[]> {
  const b = box(q, MAX_SEGMENT_M / 2);
  const rows = await knex.raw<{ rows: StreetMatch[] }>(
    `with seg as (
       select street_id,
              (lng1 - :lng) * :kx as ax, (lat1 - :lat) * :ky as ay,
              (lng2 - lng1) * :kx as dx, (lat2 - lat1) * :ky as dy
         from geo.street_segments
        where lat_band = any(:bands) and lng between :minLng and :maxLng
     ), proj as (
       select street_id, ax, ay, dx, dy,
              case when dx * dx + dy * dy = 0 then 0
                   else greatest(0, least(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy))) end as t
         from seg
     ), nearest as (
       select distinct on (street_id) street_id, ax + t * dx as px, ay + t * dy as py,
              sqrt((ax + t * dx) ^ 2 + (ay + t * dy) ^ 2) as distance
         from proj
        order by street_id, distance
     )
     select 'STREET' as kind, s.name as street, null as "houseNumber", s.postal_code as "postalCode", s.city, s.county, s.state,
            :lat + n.py / :ky as lat, :lng + n.px / :kx as lng, n.distance
       from nearest n join geo.streets s on s.id = n.street_id
      where n.distance <= :radius ${q.namedOnly ? `and coalesce(s.name, '') <> ''` : ''}
      order by n.distance, s.id
      limit :limit`,
    {
      lat: q.lat,
      lng: q.lng,
      kx: b.kx,
      ky: b.ky,
      bands: b.bands,
      minLng: b.minLng,
      maxLng: b.maxLng,
      radius: q.radius,
      limit: q.limit,
    },
  );
  return rows.rows;
}
