/**
 * The demo street dataset: a few streets around real capitals, with plausible names and house
 * numbers, generated deterministically (no randomness) as a GeoJSON FeatureCollection in the
 * format the import command reads, so the demo goes through the same import path as real data.
 * Geometry approximates the real streets; house numbers are invented: every 30 m along each
 * named street, odd numbers 8 m to the left, even numbers 8 m to the right.
 */
import { metersPerDegree } from '../domain/distance';

interface DemoStreet {
  name: string | null;
  highway: string;
  /** [lng, lat] */
  line: Array<[number, number]>;
}

interface DemoCity {
  city: string;
  postalCode: string;
  state: string | null;
  county: string | null;
  streets: DemoStreet[];
}

export const DEMO_CITIES: DemoCity[] = [
  {
    city: 'Paris',
    postalCode: '75004',
    state: 'Île-de-France',
    county: 'Paris',
    streets: [
      {
        name: 'Rue de Rivoli',
        highway: 'primary',
        line: [
          [2.347, 48.859],
          [2.354, 48.8572],
          [2.361, 48.8553],
        ],
      },
      {
        name: 'Rue du Temple',
        highway: 'secondary',
        line: [
          [2.3535, 48.8572],
          [2.356, 48.861],
        ],
      },
      {
        name: "Quai de l'Hôtel de Ville",
        highway: 'primary',
        line: [
          [2.349, 48.856],
          [2.356, 48.8545],
        ],
      },
      {
        name: null,
        highway: 'pedestrian',
        line: [
          [2.3515, 48.8563],
          [2.3528, 48.8566],
        ],
      },
    ],
  },
  {
    city: 'Berlin',
    postalCode: '10117',
    state: 'Berlin',
    county: 'Mitte',
    streets: [
      {
        name: 'Unter den Linden',
        highway: 'primary',
        line: [
          [13.3777, 52.5163],
          [13.396, 52.5175],
        ],
      },
      {
        name: 'Friedrichstraße',
        highway: 'secondary',
        line: [
          [13.3883, 52.525],
          [13.3903, 52.507],
        ],
      },
      {
        name: null,
        highway: 'service',
        line: [
          [13.385, 52.516],
          [13.386, 52.515],
        ],
      },
    ],
  },
  {
    city: 'Nairobi',
    postalCode: '00100',
    state: 'Nairobi',
    county: 'Nairobi County',
    streets: [
      {
        name: 'Kenyatta Avenue',
        highway: 'primary',
        line: [
          [36.816, -1.285],
          [36.826, -1.287],
        ],
      },
      {
        name: 'Moi Avenue',
        highway: 'primary',
        line: [
          [36.824, -1.281],
          [36.827, -1.289],
        ],
      },
      {
        name: null,
        highway: 'track',
        line: [
          [36.82, -1.29],
          [36.821, -1.291],
        ],
      },
    ],
  },
  {
    city: 'Tokyo',
    postalCode: '100-0005',
    state: 'Tokyo',
    county: 'Chiyoda',
    streets: [
      {
        name: 'Marunouchi Naka-dori',
        highway: 'tertiary',
        line: [
          [139.763, 35.679],
          [139.764, 35.685],
        ],
      },
      {
        name: 'Eitai-dori',
        highway: 'primary',
        line: [
          [139.76, 35.686],
          [139.772, 35.684],
        ],
      },
      {
        name: null,
        highway: 'service',
        line: [
          [139.766, 35.68],
          [139.767, 35.6805],
        ],
      },
    ],
  },
  {
    city: 'Sydney',
    postalCode: '2000',
    state: 'New South Wales',
    county: null,
    streets: [
      {
        name: 'George Street',
        highway: 'primary',
        line: [
          [151.207, -33.86],
          [151.206, -33.88],
        ],
      },
      {
        name: 'Pitt Street',
        highway: 'secondary',
        line: [
          [151.2085, -33.865],
          [151.2075, -33.878],
        ],
      },
    ],
  },
];

const HOUSE_STEP_M = 30;
const HOUSE_OFFSET_M = 8;

interface Feature {
  type: 'Feature';
  id: string;
  geometry:
    | { type: 'Point'; coordinates: [number, number] }
    | { type: 'LineString'; coordinates: Array<[number, number]> };
  properties: Record<string, string>;
}

/** Houses along a line: [lng, lat, number]. */
function houses(line: Array<[number, number]>): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  let step = 0;
  let carried = 0;
  for (let i = 0; i + 1 < line.length; i++) {
    const [lng1, lat1] = line[i]!;
    const [lng2, lat2] = line[i + 1]!;
    const { kx, ky } = metersPerDegree((lat1 + lat2) / 2);
    const dx = (lng2 - lng1) * kx;
    const dy = (lat2 - lat1) * ky;
    const length = Math.hypot(dx, dy);
    const [nx, ny] = [-dy / length, dx / length];
    for (let at = carried; at <= length; at += HOUSE_STEP_M) {
      const x = lng1 + (dx * at) / length / kx;
      const y = lat1 + (dy * at) / length / ky;
      out.push([x + (nx * HOUSE_OFFSET_M) / kx, y + (ny * HOUSE_OFFSET_M) / ky, 2 * step + 1]);
      out.push([x - (nx * HOUSE_OFFSET_M) / kx, y - (ny * HOUSE_OFFSET_M) / ky, 2 * step + 2]);
      step++;
      carried = at + HOUSE_STEP_M - length;
    }
  }
  return out;
}

const r7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** The demo dataset as a GeoJSON FeatureCollection (same output on every call). */
export function demoStreetsGeoJson(): { type: 'FeatureCollection'; features: Feature[] } {
  const features: Feature[] = [];
  for (const c of DEMO_CITIES) {
    const addr = {
      'addr:postcode': c.postalCode,
      'addr:city': c.city,
      ...(c.state ? { 'addr:state': c.state } : {}),
      ...(c.county ? { 'addr:county': c.county } : {}),
    };
    c.streets.forEach((s, si) => {
      const wayId = `demo/${c.city.toLowerCase()}/way/${si + 1}`;
      features.push({
        type: 'Feature',
        id: wayId,
        geometry: { type: 'LineString', coordinates: s.line },
        properties: {
          highway: s.highway,
          ...(s.name ? { name: s.name } : {}),
          postal_code: c.postalCode,
          'addr:city': c.city,
          ...(c.state ? { 'addr:state': c.state } : {}),
          ...(c.county ? { 'addr:county': c.county } : {}),
        },
      });
      if (!s.name) return;
      for (const [lng, lat, number] of houses(s.line)) {
        features.push({
          type: 'Feature',
          id: `${wayId}/house/${number}`,
          geometry: { type: 'Point', coordinates: [r7(lng), r7(lat)] },
          properties: { 'addr:street': s.name, 'addr:housenumber': String(number), ...addr },
        });
      }
    });
  }
  return { type: 'FeatureCollection', features };
}
