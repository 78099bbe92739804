/** Real coordinates with known answers: capitals, small towns, sea, a border area, languages, IC. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('geo_places', { demoStreets: true });
});
after(() => h.close());

/** The single element of a default query (radius 100 m, maxResult 1) at a point without demo streets. */
async function place(lat: number, lng: number, lang = 'en') {
  const res = await h.geodecode({ lat, lng, lang });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data.geodecode;
}

describe('capitals and towns on several continents', () => {
  const cases: Array<[string, number, number, string, string, string, string]> = [
    // label, lat, lng, city, country, alpha-2, alpha-3
    ['Paris', 48.8566, 2.3522, 'Paris', 'France', 'FR', 'FRA'],
    ['Nairobi', -1.2921, 36.8219, 'Nairobi', 'Kenya', 'KE', 'KEN'],
    ['Tokyo (Shinjuku)', 35.6895, 139.6917, 'Tokyo', 'Japan', 'JP', 'JPN'],
    ['Buenos Aires', -34.6037, -58.3816, 'Buenos Aires', 'Argentina', 'AR', 'ARG'],
    ['Sydney', -33.8688, 151.2093, 'Sydney', 'Australia', 'AU', 'AUS'],
    ['Berlin', 52.52, 13.405, 'Berlin', 'Germany', 'DE', 'DEU'],
    ['Zermatt, small Alpine town', 46.0207, 7.7491, 'Zermatt', 'Switzerland', 'CH', 'CHE'],
    ['Moab, small town in Utah', 38.5733, -109.5498, 'Moab', 'United States of America', 'US', 'USA'],
    ['Hermanus, small town in South Africa', -34.4187, 19.2345, 'Hermanus', 'South Africa', 'ZA', 'ZAF'],
    ['Kiruna, small town north of the Arctic circle', 67.8558, 20.2253, 'Kiruna', 'Sweden', 'SE', 'SWE'],
  ];
  for (const [label, lat, lng, city, country, alpha2, alpha3] of cases) {
    test(`${label} -> ${city}, ${country}`, async () => {
      const { elements, extent } = await place(lat, lng);
      assert.equal(elements.length, 1);
      const [e] = elements;
      // Paris has demo streets right there: the element is a street of Paris; elsewhere a CITY.
      assert.ok(['CITY', 'STREET', 'ADDRESS'].includes(e.kind), e.kind);
      assert.equal(e.city, city);
      assert.equal(e.country, country);
      assert.equal(e.countryCode, alpha2);
      assert.equal(e.countryCodeAlpha3, alpha3);
      assert.ok(e.distance >= 0 && e.distance < 15_000, `distance ${e.distance}`);
      assert.equal(extent.centerLat, lat);
      assert.equal(extent.centerLng, lng);
      assert.ok(extent.minLat <= Math.min(lat, e.lat) && extent.maxLat >= Math.max(lat, e.lat));
      assert.ok(extent.minLng <= Math.min(lng, e.lng) && extent.maxLng >= Math.max(lng, e.lng));
    });
  }

  test('a CITY element carries the place position, its distance and the GeoNames region code', async () => {
    const { elements } = await place(-1.2921, 36.8219);
    const [e] = elements;
    assert.equal(e.kind, 'CITY');
    assert.equal(e.street, null);
    assert.equal(e.stateCode, '05');
    assert.ok(Math.abs(e.lat - -1.28333) < 0.01 && Math.abs(e.lng - 36.81667) < 0.01);
    assert.ok(e.distance > 500 && e.distance < 2000, `distance ${e.distance}`);
  });
});

describe('sea and borders', () => {
  test('a point in the open sea has no country and no element', async () => {
    for (const [lat, lng] of [
      [30, -40],
      [-40, -120],
    ] as const) {
      const { elements, extent } = await place(lat, lng);
      assert.deepEqual(elements, []);
      assert.deepEqual(extent, {
        minLat: lat,
        minLng: lng,
        maxLat: lat,
        maxLng: lng,
        centerLat: lat,
        centerLng: lng,
      });
    }
  });

  test('around Basel each side of the CH/FR/DE borders is named right', async () => {
    const basel = (await place(47.5596, 7.5886)).elements[0];
    assert.deepEqual([basel.countryCode, basel.city], ['CH', 'Basel']);
    const saintLouis = (await place(47.59, 7.56)).elements[0];
    assert.deepEqual(
      [saintLouis.countryCode, saintLouis.city],
      ['FR', 'Saint-Louis'],
      'Basel is nearer but across the border',
    );
    const weil = (await place(47.593, 7.62)).elements[0];
    assert.deepEqual([weil.countryCode, weil.city], ['DE', 'Weil am Rhein']);
  });
});

describe('dependent territories', () => {
  test('a territory with its own ISO code is answered as itself (GeoNames files its places so)', async () => {
    const guadeloupe = (await place(16.2411, -61.5331)).elements[0];
    assert.deepEqual(
      [guadeloupe.kind, guadeloupe.countryCode, guadeloupe.city],
      ['CITY', 'GP', 'Pointe-à-Pitre'],
    );
    const honolulu = (await place(21.3069, -157.8583)).elements[0];
    assert.deepEqual(
      [honolulu.countryCode, honolulu.city],
      ['US', 'Honolulu'],
      'Hawaii has no ISO 3166-1 code of its own',
    );
  });
});

describe('languages', () => {
  test('country names follow lang, in any case', async () => {
    assert.equal((await place(46.0207, 7.7491, 'de')).elements[0].country, 'Schweiz');
    assert.equal((await place(46.0207, 7.7491, 'FR')).elements[0].country, 'Suisse');
    assert.equal((await place(52.52, 13.405, 'fr')).elements[0].country, 'Allemagne');
    assert.equal((await place(-1.2921, 36.8219, 'de')).elements[0].country, 'Kenia');
  });

  test('lang "de" at Paris gives Frankreich', async () => {
    assert.equal((await place(48.8566, 2.3522, 'de')).elements[0].country, 'Frankreich');
  });

  test('a valid language without country names falls back to English', async () => {
    // Zulu and Yoruba are ISO 639-1 codes without a locale in i18n-iso-countries.
    assert.equal((await place(48.8566, 2.3522, 'zu')).elements[0].country, 'France');
    assert.equal((await place(-1.2921, 36.8219, 'yo')).elements[0].country, 'Kenya');
  });

  test('place names have no translations: they stay as GeoNames writes them', async () => {
    assert.equal((await place(35.6895, 139.6917, 'ja')).elements[0].city, 'Tokyo');
    assert.equal((await place(35.6895, 139.6917, 'ja')).elements[0].country, '日本');
  });
});

describe('IC: country search by ISO 3166 code', () => {
  test('"FRA" and "fr" find France, positioned at Paris, with the extent of its places', async () => {
    for (const [lang, countryCode] of [
      ['IC', 'FRA'],
      ['ic', 'fr'],
      ['Ic', 'Fr'],
    ]) {
      const res = await h.geodecode({ lang, countryCode });
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      const { elements, extent } = res.data.geodecode;
      assert.equal(elements.length, 1);
      const [e] = elements;
      assert.deepEqual(
        [e.kind, e.country, e.countryCode, e.countryCodeAlpha3, e.distance],
        ['COUNTRY', 'France', 'FR', 'FRA', null],
      );
      assert.ok(Math.abs(e.lat - 48.853) < 0.05 && Math.abs(e.lng - 2.349) < 0.05, 'at the capital');
      // Metropolitan France and Corsica (overseas departments have their own ISO codes).
      assert.ok(
        extent.minLat > 41 && extent.minLat < 42.5 && extent.maxLat > 50.9 && extent.maxLat < 51.2,
        JSON.stringify(extent),
      );
      assert.ok(extent.minLng > -5.5 && extent.maxLng > 9 && extent.maxLng < 10, JSON.stringify(extent));
    }
  });

  test('alpha-3 codes of other continents', async () => {
    for (const [code, alpha2, name] of [
      ['JPN', 'JP', 'Japan'],
      ['ken', 'KE', 'Kenya'],
      ['ARG', 'AR', 'Argentina'],
      ['au', 'AU', 'Australia'],
    ]) {
      const e = (await h.geodecode({ lang: 'IC', countryCode: code })).data.geodecode.elements[0];
      assert.deepEqual([e.countryCode, e.country], [alpha2, name]);
    }
  });

  test('IC with a point and no code gives the country at the point, with the distance to its capital', async () => {
    const { elements } = (await h.geodecode({ lang: 'IC', lat: 46.0207, lng: 7.7491 })).data.geodecode;
    assert.deepEqual([elements[0].kind, elements[0].countryCode], ['COUNTRY', 'CH']);
    assert.ok(elements[0].distance > 100_000 && elements[0].distance < 150_000, 'Zermatt to Bern');
  });

  test('an unknown but well-formed code finds nothing', async () => {
    const res = await h.geodecode({ lang: 'IC', countryCode: 'ZZZ' });
    assert.equal(res.errors, undefined);
    assert.deepEqual(res.data.geodecode, { extent: null, elements: [] });
  });
});
