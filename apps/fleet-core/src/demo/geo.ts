/**
 * Geography of the demo data: city centres of the depots (WGS 84) and plausible road trips around
 * them. A trip's straight-line distance is stretched by a road factor (roads are not straight),
 * and its duration follows from an average speed that grows with the distance (town traffic for
 * short hops, main roads and motorways for long ones), so distance, duration and speeds agree.
 */
import type { Rng } from './ids';

export const CITY_CENTRES: Readonly<Record<string, readonly [number, number]>> = {
  Hamburg: [53.5511, 9.9937],
  Bremen: [53.0793, 8.8017],
  Hannover: [52.3759, 9.732],
  Munich: [48.1351, 11.582],
  Stuttgart: [48.7758, 9.1829],
  Nuremberg: [49.4521, 11.0767],
  Berlin: [52.52, 13.405],
  Leipzig: [51.3397, 12.3731],
  Dresden: [51.0504, 13.7373],
  Cologne: [50.9375, 6.9603],
  Dusseldorf: [51.2277, 6.7735],
  Dortmund: [51.5136, 7.4653],
  Frankfurt: [50.1109, 8.6821],
  Kassel: [51.3127, 9.4797],
  Erfurt: [50.9848, 11.0299],
  Kiel: [54.3233, 10.1228],
  Rostock: [54.0924, 12.0991],
  Lubeck: [53.8655, 10.6866],
  Mainz: [49.9929, 8.2473],
  Mannheim: [49.4875, 8.466],
  Karlsruhe: [49.0069, 8.4037],
  Augsburg: [48.3705, 10.8978],
  Regensburg: [49.0134, 12.1016],
  Ulm: [48.4011, 9.9876],
  Lyon: [45.764, 4.8357],
  Grenoble: [45.1885, 5.7245],
  Marseille: [43.2965, 5.3698],
  Nice: [43.7102, 7.262],
  Paris: [48.8566, 2.3522],
  Versailles: [48.8049, 2.1204],
  Toulouse: [43.6047, 1.4442],
  Montpellier: [43.6108, 3.8767],
};

export function cityCentre(name: string): readonly [number, number] {
  const centre = CITY_CENTRES[name];
  if (!centre) throw new Error(`no coordinates for city ${name}`);
  return centre;
}

const EARTH_RADIUS_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km. */
export function haversineKm(a: readonly [number, number], b: readonly [number, number]): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

/** A point `km` away from `from` in direction `bearing` (radians), flat-earth approximation. */
export function offset(from: readonly [number, number], km: number, bearing: number): [number, number] {
  const dLat = (km * Math.cos(bearing)) / 111.32;
  const dLon = (km * Math.sin(bearing)) / (111.32 * Math.cos(rad(from[0])));
  return [round6(from[0] + dLat), round6(from[1] + dLon)];
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export interface RoadTrip {
  start: [number, number];
  end: [number, number];
  distanceM: number;
  durationS: number;
  maxSpeedKmh: number;
  idleS: number;
}

/**
 * A trip ending at `end`, starting somewhere within the service area of `centre` (mostly short
 * urban deliveries, sometimes a regional run up to ~80 km).
 */
export function roadTripTo(rng: Rng, centre: readonly [number, number], end: [number, number]): RoadTrip {
  const longRun = rng.chance(0.15);
  const radius = longRun ? 15 + rng.next() * 65 : 1 + rng.next() * 14;
  let start = offset(centre, radius * Math.sqrt(rng.next()), rng.next() * 2 * Math.PI);
  if (haversineKm(start, end) < 0.5) start = offset(end, 0.8 + rng.next() * 3, rng.next() * 2 * Math.PI);
  const straightKm = haversineKm(start, end);
  const roadKm = straightKm * (1.22 + rng.next() * 0.2);
  // Average moving speed: ~22 km/h in town, approaching ~75 km/h on long runs.
  const averageKmh = 22 + 53 * (1 - Math.exp(-roadKm / 30)) + (rng.next() - 0.5) * 6;
  const movingS = (roadKm / averageKmh) * 3600;
  const idleS = Math.round(movingS * (0.03 + rng.next() * 0.12));
  const maxSpeedKmh = Math.min(
    roadKm > 20 ? 135 : 95,
    Math.round(averageKmh * (1.45 + rng.next() * 0.45) * 10) / 10,
  );
  return {
    start,
    end,
    distanceM: Math.max(1, Math.round(roadKm * 1000)),
    durationS: Math.max(60, Math.round(movingS + idleS)),
    maxSpeedKmh,
    idleS,
  };
}

/** Country, local name and central postal code of each depot city (for street addresses). */
const CITY_ADDRESSES: Readonly<
  Record<string, readonly [country: 'DE' | 'FR', name: string, postal: number]>
> = {
  Hamburg: ['DE', 'Hamburg', 20095],
  Bremen: ['DE', 'Bremen', 28195],
  Hannover: ['DE', 'Hannover', 30159],
  Munich: ['DE', 'München', 80331],
  Stuttgart: ['DE', 'Stuttgart', 70173],
  Nuremberg: ['DE', 'Nürnberg', 90402],
  Berlin: ['DE', 'Berlin', 10115],
  Leipzig: ['DE', 'Leipzig', 4109],
  Dresden: ['DE', 'Dresden', 1067],
  Cologne: ['DE', 'Köln', 50667],
  Dusseldorf: ['DE', 'Düsseldorf', 40213],
  Dortmund: ['DE', 'Dortmund', 44135],
  Frankfurt: ['DE', 'Frankfurt am Main', 60311],
  Kassel: ['DE', 'Kassel', 34117],
  Erfurt: ['DE', 'Erfurt', 99084],
  Kiel: ['DE', 'Kiel', 24103],
  Rostock: ['DE', 'Rostock', 18055],
  Lubeck: ['DE', 'Lübeck', 23552],
  Mainz: ['DE', 'Mainz', 55116],
  Mannheim: ['DE', 'Mannheim', 68159],
  Karlsruhe: ['DE', 'Karlsruhe', 76133],
  Augsburg: ['DE', 'Augsburg', 86150],
  Regensburg: ['DE', 'Regensburg', 93047],
  Ulm: ['DE', 'Ulm', 89073],
  Lyon: ['FR', 'Lyon', 69001],
  Grenoble: ['FR', 'Grenoble', 38000],
  Marseille: ['FR', 'Marseille', 13001],
  Nice: ['FR', 'Nice', 6000],
  Paris: ['FR', 'Paris', 75001],
  Versailles: ['FR', 'Versailles', 78000],
  Toulouse: ['FR', 'Toulouse', 31000],
  Montpellier: ['FR', 'Montpellier', 34000],
};

const STREETS = {
  DE: [
    'Hauptstraße',
    'Bahnhofstraße',
    'Industriestraße',
    'Hafenstraße',
    'Gewerbering',
    'Lindenallee',
    'Am Markt',
    'Ringstraße',
    'Gartenstraße',
    'Schulstraße',
  ],
  FR: [
    'Rue de la République',
    'Avenue Jean Jaurès',
    'Boulevard Gambetta',
    'Rue Victor Hugo',
    'Rue Pasteur',
    'Quai de la Gare',
    'Avenue de la Libération',
    'Rue du Commerce',
    'Chemin des Vignes',
    'Rue des Écoles',
  ],
} as const;

/**
 * The street address of a position around a depot city, as a reverse geocoder would store it with
 * a trip: derived from the rounded position only, so a trip's end and the next one's start (the
 * same point) share their address. German and French formats.
 */
export function streetAddress(city: string, position: readonly [number, number]): string {
  const entry = CITY_ADDRESSES[city];
  if (!entry) throw new Error(`no address data for city ${city}`);
  const [country, name, postal] = entry;
  // A cheap deterministic hash of the position (~100 m cells).
  const cell = Math.round(position[0] * 1000) * 73_856_093 + Math.round(position[1] * 1000) * 19_349_663;
  const h = Math.abs(cell) % 1_000_003;
  const street = STREETS[country][h % STREETS[country].length]!;
  const number = 1 + (h % 180);
  const code = String(postal + (h % 9) * (country === 'FR' ? 1 : 2)).padStart(5, '0');
  return country === 'DE' ? `${street} ${number}, ${code} ${name}` : `${number} ${street}, ${code} ${name}`;
}
