/**
 * GeoJSON import of streets and addresses, as produced by common OpenStreetMap tools (osmium
 * export, osmtogeojson, ogr2ogr, Overpass turbo):
 * - Point features with `addr:housenumber` and/or `addr:street` (plus optional `addr:postcode`,
 *   `addr:city`, `addr:county`, `addr:state`) become addresses; Polygon/MultiPolygon features
 *   with those tags (buildings) become addresses at the mean of their outer ring.
 * - LineString/MultiLineString features with `highway` or `name` become streets (name may be
 *   absent: an unnamed way); `addr:postcode`/`postal_code`, `addr:city`... are kept when present.
 * - Everything else is skipped and counted.
 * Tags are read from `properties`, from `properties.tags` (osmtogeojson) and from ogr2ogr's
 * `other_tags` hstore string. Every structural problem is reported with the feature index; nothing
 * is written when there is any.
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import { haversineMeters, latBand } from '../domain/distance';
import { MAX_SEGMENT_M } from '../data/streets';

export class GeoJsonError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : '';
    super(
      `invalid GeoJSON (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${shown.map((p) => `  - ${p}`).join('\n')}${more}`,
    );
    this.name = 'GeoJsonError';
  }
}

type Position = [number, number];
type Tags = Record<string, string>;

export interface ImportedStreet {
  name: string | null;
  highway: string | null;
  postalCode: string | null;
  city: string | null;
  county: string | null;
  state: string | null;
  sourceId: string | null;
  /** Each line of the way (a MultiLineString has several), [lng, lat] positions. */
  lines: Position[][];
}

export interface ImportedAddress {
  street: string | null;
  houseNumber: string | null;
  postalCode: string | null;
  city: string | null;
  county: string | null;
  state: string | null;
  sourceId: string | null;
  lat: number;
  lng: number;
}

export interface ParsedStreets {
  streets: ImportedStreet[];
  addresses: ImportedAddress[];
  skipped: number;
}

const position = z
  .array(z.number().finite())
  .min(2, 'a position needs longitude and latitude')
  .refine((p) => p[0]! >= -180 && p[0]! <= 180, 'longitude must be between -180 and 180')
  .refine((p) => p[1]! >= -90 && p[1]! <= 90, 'latitude must be between -90 and 90')
  .transform((p): Position => [p[0]!, p[1]!]);
const line = z.array(position).min(2, 'a line needs at least 2 positions');
const ring = z.array(position).min(3, 'a polygon ring needs at least 3 positions');
const geometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Point'), coordinates: position }),
  z.object({ type: z.literal('LineString'), coordinates: line }),
  z.object({ type: z.literal('MultiLineString'), coordinates: z.array(line).min(1) }),
  z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1)).min(1) }),
  z.object({ type: z.literal('MultiPoint'), coordinates: z.array(position) }),
  z.object({ type: z.literal('GeometryCollection'), geometries: z.array(z.unknown()) }),
]);
const feature = z.object({
  type: z.literal('Feature'),
  id: z.union([z.string(), z.number()]).optional(),
  geometry: geometry.nullable(),
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
});

function tagsOf(properties: Record<string, unknown> | null | undefined): Tags {
  const tags: Tags = {};
  const put = (source: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === 'string' || typeof value === 'number') tags[key] = String(value).trim();
    }
  };
  if (!properties) return tags;
  put(properties);
  if (properties.tags && typeof properties.tags === 'object') put(properties.tags as Record<string, unknown>);
  if (typeof properties.other_tags === 'string') {
    for (const match of properties.other_tags.matchAll(/"((?:[^"\\]|\\.)*)"=>"((?:[^"\\]|\\.)*)"/g))
      tags[match[1]!] = match[2]!.trim();
  }
  return tags;
}

const text = (value: string | undefined): string | null => (value && value.length > 0 ? value : null);

function common(tags: Tags, id: string | number | undefined) {
  return {
    postalCode: text(tags['addr:postcode'] ?? tags.postal_code),
    city: text(tags['addr:city']),
    county: text(tags['addr:county'] ?? tags['addr:district']),
    state: text(tags['addr:state'] ?? tags['addr:province']),
    sourceId: text(tags['@id'] ?? (id != null ? String(id) : undefined) ?? tags.id),
  };
}

/** Validates a GeoJSON FeatureCollection (parsed JSON) and extracts streets and addresses. */
export function parseStreetsGeoJson(input: unknown): ParsedStreets {
  const top = z
    .object({ type: z.literal('FeatureCollection'), features: z.array(z.unknown()) })
    .safeParse(input);
  if (!top.success) {
    throw new GeoJsonError([
      'the file must be a GeoJSON FeatureCollection: {"type": "FeatureCollection", "features": [...]}',
    ]);
  }
  const problems: string[] = [];
  const result: ParsedStreets = { streets: [], addresses: [], skipped: 0 };
  top.data.features.forEach((raw, index) => {
    const parsed = feature.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 3)) {
        problems.push(
          `features[${index}]${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`,
        );
      }
      return;
    }
    const { geometry: geom, properties, id } = parsed.data;
    const tags = tagsOf(properties);
    const isAddress = Boolean(tags['addr:housenumber'] || tags['addr:street']);
    if (!geom) {
      result.skipped++;
      return;
    }
    if (isAddress && (geom.type === 'Point' || geom.type === 'Polygon' || geom.type === 'MultiPolygon')) {
      const outer =
        geom.type === 'Point'
          ? [geom.coordinates]
          : geom.type === 'Polygon'
            ? geom.coordinates[0]!
            : geom.coordinates[0]![0]!;
      const lng = outer.reduce((sum, p) => sum + p[0], 0) / outer.length;
      const lat = outer.reduce((sum, p) => sum + p[1], 0) / outer.length;
      result.addresses.push({
        street: text(tags['addr:street']),
        houseNumber: text(tags['addr:housenumber']),
        ...common(tags, id),
        lat,
        lng,
      });
      return;
    }
    if ((geom.type === 'LineString' || geom.type === 'MultiLineString') && (tags.highway || tags.name)) {
      const lines = geom.type === 'LineString' ? [geom.coordinates] : geom.coordinates;
      result.streets.push({ name: text(tags.name), highway: text(tags.highway), ...common(tags, id), lines });
      return;
    }
    result.skipped++;
  });
  if (problems.length > 0) throw new GeoJsonError(problems);
  return result;
}

/** Cuts a line into segments of at most MAX_SEGMENT_M meters. */
export function segmentsOf(
  line: Position[],
): Array<{ lat1: number; lng1: number; lat2: number; lng2: number }> {
  const out: Array<{ lat1: number; lng1: number; lat2: number; lng2: number }> = [];
  for (let i = 0; i + 1 < line.length; i++) {
    const [lng1, lat1] = line[i]!;
    const [lng2, lat2] = line[i + 1]!;
    const pieces = Math.max(1, Math.ceil(haversineMeters(lat1, lng1, lat2, lng2) / MAX_SEGMENT_M));
    for (let k = 0; k < pieces; k++) {
      const a = k / pieces;
      const b = (k + 1) / pieces;
      out.push({
        lat1: lat1 + (lat2 - lat1) * a,
        lng1: lng1 + (lng2 - lng1) * a,
        lat2: lat1 + (lat2 - lat1) * b,
        lng2: lng1 + (lng2 - lng1) * b,
      });
    }
  }
  return out;
}

export interface ImportSummary {
  streets: number;
  segments: number;
  addresses: number;
  skipped: number;
}

const CHUNK = 500;

/** Writes parsed streets and addresses in one transaction; `replace` empties the tables first. */
export async function importStreets(
  knex: Knex,
  data: ParsedStreets,
  options: { replace?: boolean } = {},
): Promise<ImportSummary> {
  let segmentCount = 0;
  await knex.transaction(async (trx) => {
    if (options.replace)
      await trx.raw('truncate geo.street_segments, geo.streets, geo.addresses restart identity');
    for (let i = 0; i < data.streets.length; i += CHUNK) {
      const chunk = data.streets.slice(i, i + CHUNK);
      const ids = await trx('geo.streets')
        .insert(
          chunk.map((s) => ({
            name: s.name,
            highway: s.highway,
            postal_code: s.postalCode,
            city: s.city,
            county: s.county,
            state: s.state,
            source_id: s.sourceId,
          })),
        )
        .returning('id');
      const segments = chunk.flatMap((street, k) =>
        street.lines.flatMap(segmentsOf).map((seg) => {
          const lat = (seg.lat1 + seg.lat2) / 2;
          return {
            street_id: (ids[k] as { id: number }).id,
            ...seg,
            lat,
            lng: (seg.lng1 + seg.lng2) / 2,
            lat_band: latBand(lat),
          };
        }),
      );
      for (let j = 0; j < segments.length; j += CHUNK)
        await trx('geo.street_segments').insert(segments.slice(j, j + CHUNK));
      segmentCount += segments.length;
    }
    for (let i = 0; i < data.addresses.length; i += CHUNK) {
      await trx('geo.addresses').insert(
        data.addresses.slice(i, i + CHUNK).map((a) => ({
          street: a.street,
          house_number: a.houseNumber,
          postal_code: a.postalCode,
          city: a.city,
          county: a.county,
          state: a.state,
          lat: a.lat,
          lng: a.lng,
          lat_band: latBand(a.lat),
          source_id: a.sourceId,
        })),
      );
    }
  });
  return {
    streets: data.streets.length,
    segments: segmentCount,
    addresses: data.addresses.length,
    skipped: data.skipped,
  };
}
