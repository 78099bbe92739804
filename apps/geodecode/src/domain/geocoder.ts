/**
 * geodecode: combines the street database (radius-bounded matches), the GeoNames place index
 * (the city naming the area) and country borders + localized names into the answer.
 *
 * Rules:
 * - elements are ADDRESS and STREET matches within the radius, nearest first (an address before
 *   a street at the same distance), at most maxResult;
 * - with no match, one CITY element (place of the point's country within 50 km) or else one
 *   COUNTRY element at the query point; at sea (no country) nothing;
 * - skipEmptyStreetname drops every element without a street name (so also CITY and COUNTRY);
 * - each element's country is the one at the element's own position (a street across a border
 *   belongs to the other country), falling back to the query point's;
 * - IC: a country by code (or the country at the point), positioned at its capital, with the
 *   bounding box of its populated places as extent.
 */
import type { Knex } from 'knex';
import { featuresIn, feature } from '@rapideditor/country-coder';
import { findAddresses, findStreets, type StreetMatch } from '../data/streets';
import type { GeodecodeRequest } from './args';
import { countryAt, countryByCode, countryName, type CountryInfo } from './countries';
import { haversineMeters } from './distance';
import { DEFAULT_LANGUAGE } from './languages';
import { placeIndex, type Place } from './places';

export type GeodecodeKind = 'ADDRESS' | 'STREET' | 'CITY' | 'COUNTRY';

export interface GeodecodeElement {
  kind: GeodecodeKind;
  country: string | null;
  countryCode: string | null;
  countryCodeAlpha3: string | null;
  state: string | null;
  stateCode: string | null;
  county: string | null;
  city: string | null;
  postalCode: string | null;
  street: string | null;
  houseNumber: string | null;
  distance: number | null;
  lat: number;
  lng: number;
}

export interface GeodecodeExtent {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
  centerLat: number;
  centerLng: number;
}

export interface GeodecodeResult {
  extent: GeodecodeExtent | null;
  elements: GeodecodeElement[];
}

const round = (meters: number) => Math.round(meters * 10) / 10;
/** 7 decimals of a degree: about 1 cm. */
const r7 = (degrees: number) => Math.round(degrees * 1e7) / 1e7;

function countryFields(country: CountryInfo | null, lang: string) {
  return {
    country: country ? countryName(country, lang) : null,
    countryCode: country?.alpha2 ?? null,
    countryCodeAlpha3: country?.alpha3 ?? null,
  };
}

function extentAround(
  center: { lat: number; lng: number },
  points: Array<{ lat: number; lng: number }>,
): GeodecodeExtent {
  const all = [center, ...points];
  return {
    minLat: Math.min(...all.map((p) => p.lat)),
    minLng: Math.min(...all.map((p) => p.lng)),
    maxLat: Math.max(...all.map((p) => p.lat)),
    maxLng: Math.max(...all.map((p) => p.lng)),
    centerLat: center.lat,
    centerLng: center.lng,
  };
}

export async function geodecode(knex: Knex, request: GeodecodeRequest): Promise<GeodecodeResult> {
  if (request.mode === 'country') return countrySearch(request);
  const { lat, lng, radius, maxResult, skipEmptyStreetname, lang } = request;

  const query = { lat, lng, radius, limit: maxResult, namedOnly: skipEmptyStreetname };
  const [addresses, streets] = await Promise.all([findAddresses(knex, query), findStreets(knex, query)]);
  const matches = [...addresses, ...streets]
    .sort((a, b) => a.distance - b.distance || (a.kind === b.kind ? 0 : a.kind === 'ADDRESS' ? -1 : 1))
    .slice(0, maxResult);

  const here = countryAt(lat, lng);
  let place: Place | null | undefined;
  const placeHere = () =>
    place === undefined ? (place = here ? placeIndex().nameFor(lat, lng, here.alpha2) : null) : place;

  const elements: GeodecodeElement[] = matches.map((m) => fromMatch(m, here, placeHere, lang));
  if (elements.length === 0 && !skipEmptyStreetname && here) {
    const p = placeHere();
    elements.push({
      kind: p ? 'CITY' : 'COUNTRY',
      ...countryFields(here, lang),
      state: null,
      stateCode: p?.adminCode ?? null,
      county: null,
      city: p?.name ?? null,
      postalCode: null,
      street: null,
      houseNumber: null,
      distance: p ? round(p.distance) : 0,
      lat: p?.lat ?? lat,
      lng: p?.lng ?? lng,
    });
  }
  return { extent: extentAround({ lat, lng }, elements), elements };
}

function fromMatch(
  m: StreetMatch,
  here: CountryInfo | null,
  placeHere: () => Place | null,
  lang: string,
): GeodecodeElement {
  const country = countryAt(m.lat, m.lng) ?? here;
  const place =
    country && here && country.alpha2 === here.alpha2
      ? placeHere()
      : country
        ? placeIndex().nameFor(m.lat, m.lng, country.alpha2)
        : null;
  return {
    kind: m.kind,
    ...countryFields(country, lang),
    state: m.state,
    stateCode: place?.adminCode ?? null,
    county: m.county,
    city: m.city ?? place?.name ?? null,
    postalCode: m.postalCode,
    street: m.street,
    houseNumber: m.houseNumber,
    distance: round(m.distance),
    lat: r7(m.lat),
    lng: r7(m.lng),
  };
}

function countrySearch(request: Extract<GeodecodeRequest, { mode: 'country' }>): GeodecodeResult {
  const { point } = request;
  const country = request.countryCode
    ? countryByCode(request.countryCode)
    : point
      ? countryAt(point.lat, point.lng)
      : null;
  if (!country) return { extent: point ? extentAround(point, []) : null, elements: [] };

  const area = placeIndex().area(country.alpha2);
  const bbox = area?.bbox ?? bordersBox(country.alpha2);
  const position =
    area?.capital ??
    (bbox ? { lat: (bbox.minLat + bbox.maxLat) / 2, lng: (bbox.minLng + bbox.maxLng) / 2 } : point);
  if (!position) return { extent: null, elements: [] };
  const box = bbox ?? {
    minLat: position.lat,
    maxLat: position.lat,
    minLng: position.lng,
    maxLng: position.lng,
  };
  const extent: GeodecodeExtent = {
    ...box,
    centerLat: point?.lat ?? (box.minLat + box.maxLat) / 2,
    centerLng: point?.lng ?? (box.minLng + box.maxLng) / 2,
  };
  if (request.skipEmptyStreetname) return { extent, elements: [] };
  return {
    extent,
    elements: [
      {
        kind: 'COUNTRY',
        ...countryFields(country, DEFAULT_LANGUAGE),
        state: null,
        stateCode: null,
        county: null,
        city: null,
        postalCode: null,
        street: null,
        houseNumber: null,
        distance: point ? round(haversineMeters(point.lat, point.lng, position.lat, position.lng)) : null,
        lat: position.lat,
        lng: position.lng,
      },
    ],
  };
}

/** Bounding box of a country's border polygons (used when GeoNames lists no place for it). */
function bordersBox(
  alpha2: string,
): { minLat: number; minLng: number; maxLat: number; maxLng: number } | null {
  const features = [feature(alpha2), ...featuresIn(alpha2, true)].filter((f) => f?.geometry);
  const box = { minLat: 90, minLng: 180, maxLat: -90, maxLng: -180 };
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      box.minLng = Math.min(box.minLng, c[0] as number);
      box.maxLng = Math.max(box.maxLng, c[0] as number);
      box.minLat = Math.min(box.minLat, c[1] as number);
      box.maxLat = Math.max(box.maxLat, c[1] as number);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  for (const f of features) visit((f!.geometry as { coordinates: unknown }).coordinates);
  return box.minLat <= box.maxLat ? box : null;
}
