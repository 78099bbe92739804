/** Street and address matches on the generated demo streets: radius, maxResult, skipEmptyStreetname. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Knex } from '@fleetgraph/db';
import { seedStreets } from './demo/seed';
import { demoStreetsGeoJson } from './demo/streets';
import manifest from './manifest';
import { seedDemoStreets, startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('geo_streets', { demoStreets: true });
});
after(() => h.close());

function house(street: string, number: string): { lat: number; lng: number } {
  const f = demoStreetsGeoJson().features.find(
    (x) => x.properties['addr:street'] === street && x.properties['addr:housenumber'] === number,
  );
  assert.ok(f && f.geometry.type === 'Point', `${street} ${number} in the demo data`);
  const [lng, lat] = f.geometry.coordinates as [number, number];
  return { lat, lng };
}

async function elements(args: Record<string, unknown>) {
  const res = await h.geodecode(args);
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data.geodecode.elements as Array<Record<string, any>>;
}

const sortedByDistance = (list: Array<Record<string, any>>) =>
  list.every((e, i) => i === 0 || list[i - 1]!.distance <= e.distance);

describe('addresses and streets within the radius', () => {
  test('at a house: the address, with its full context, at distance 0', async () => {
    const at = house('Unter den Linden', '5');
    const [e] = await elements({ ...at });
    assert.deepEqual(
      {
        kind: e!.kind,
        street: e!.street,
        houseNumber: e!.houseNumber,
        postalCode: e!.postalCode,
        city: e!.city,
        county: e!.county,
        state: e!.state,
      },
      {
        kind: 'ADDRESS',
        street: 'Unter den Linden',
        houseNumber: '5',
        postalCode: '10117',
        city: 'Berlin',
        county: 'Mitte',
        state: 'Berlin',
      },
    );
    assert.deepEqual(
      [e!.country, e!.countryCode, e!.countryCodeAlpha3, e!.stateCode],
      ['Germany', 'DE', 'DEU', '16'],
    );
    assert.equal(e!.distance, 0);
    assert.deepEqual([e!.lat, e!.lng], [at.lat, at.lng]);
  });

  test('maxResult caps the elements, nearest first; the street itself is one element', async () => {
    const list = await elements({ ...house('Unter den Linden', '5'), maxResult: 10 });
    assert.equal(list.length, 10);
    assert.ok(sortedByDistance(list));
    assert.ok(list.every((e) => e.distance <= 100));
    const street = list.filter((e) => e.kind === 'STREET');
    assert.equal(street.length, 1);
    assert.equal(street[0]!.street, 'Unter den Linden');
    assert.ok(
      Math.abs(street[0]!.distance - 8) < 0.5,
      `the houses are 8 m from the street axis, got ${street[0]!.distance}`,
    );
    assert.equal(street[0]!.houseNumber, null);
  });

  test('radius bounds the matches', async () => {
    const at = house('Unter den Linden', '5');
    const near = await elements({ ...at, radius: 5, maxResult: 10 });
    assert.deepEqual(
      near.map((e) => [e.kind, e.houseNumber]),
      [['ADDRESS', '5']],
    );
    const wider = await elements({ ...at, radius: 40, maxResult: 50 });
    assert.ok(wider.length > 3 && wider.length < 10, `${wider.length}`);
    assert.ok(wider.every((e) => e.distance <= 40));
    const widest = await elements({ ...at, radius: 50_000, maxResult: 50 });
    assert.equal(widest.length, 50);
    assert.ok(sortedByDistance(widest));
    assert.ok(widest.at(-1)!.distance > 40);
  });

  test('with nothing within the radius, the city names the area', async () => {
    // 60 m north of Unter den Linden, away from the other demo streets.
    const at = { lat: 52.5174, lng: 13.38 };
    const none = await elements({ ...at, radius: 30, maxResult: 5 });
    assert.deepEqual(
      none.map((e) => [e.kind, e.city, e.street]),
      [['CITY', 'Berlin', null]],
    );
    const some = await elements({ ...at, radius: 100, maxResult: 5 });
    assert.ok(
      some.length > 1 &&
        some.every((e) => e.kind !== 'CITY' && e.street === 'Unter den Linden' && e.distance <= 100),
    );
    assert.ok(sortedByDistance(some));
  });

  test('the same on other continents: Nairobi and Tokyo', async () => {
    const [nairobi] = await elements({ ...house('Moi Avenue', '3') });
    assert.deepEqual(
      [nairobi!.street, nairobi!.houseNumber, nairobi!.countryCode, nairobi!.postalCode],
      ['Moi Avenue', '3', 'KE', '00100'],
    );
    const [tokyo] = await elements({ ...house('Eitai-dori', '12'), lang: 'ja' });
    assert.deepEqual(
      [tokyo!.street, tokyo!.houseNumber, tokyo!.country, tokyo!.postalCode],
      ['Eitai-dori', '12', '日本', '100-0005'],
    );
  });
});

describe('skipEmptyStreetname', () => {
  // Paris demo data: an unnamed pedestrian way passes 15 m from the Hotel de Ville point,
  // Rue de Rivoli about 100 m north of it.
  const paris = { lat: 48.8566, lng: 2.3522 };

  test('without it, the unnamed way is the nearest element', async () => {
    const [e] = await elements({ ...paris });
    assert.deepEqual([e!.kind, e!.street, e!.city], ['STREET', null, 'Paris']);
    assert.ok(e!.distance < 20);
  });

  test('with it, elements without a street name are dropped, also the place-level fallback', async () => {
    assert.deepEqual(await elements({ ...paris, skipEmptyStreetname: true }), []);
    const named = await elements({ ...paris, radius: 300, maxResult: 5, skipEmptyStreetname: true });
    assert.equal(named.length, 5);
    assert.ok(named.every((e) => typeof e.street === 'string' && e.street.length > 0));
    assert.equal(named[0]!.street, 'Rue de Rivoli');
    // Far from any street: no CITY element either.
    assert.deepEqual(await elements({ lat: -1.2921, lng: 36.8, skipEmptyStreetname: true }), []);
    assert.equal((await elements({ lat: -1.2921, lng: 36.8, skipEmptyStreetname: false }))[0]!.kind, 'CITY');
  });
});

describe('demo seed', () => {
  const counts = async (knex: Knex) => {
    const { rows } = await knex.raw(
      'select (select count(*)::int from geo.streets) as streets, (select count(*)::int from geo.addresses) as addresses',
    );
    return rows[0] as { streets: number; addresses: number };
  };

  test('the demo hook loaded the streets; it and seedStreets load only into empty tables', async () => {
    assert.equal(await manifest.demoData!.isSeeded(h.knex), true);
    const loaded = await counts(h.knex);
    assert.equal(loaded.streets, 15);
    assert.ok(loaded.addresses > 300, `${loaded.addresses}`);
    assert.equal(await seedStreets(h.knex), null, 'already seeded by the hook');
    await seedDemoStreets(h.knex);
    assert.deepEqual(await counts(h.knex), loaded, 'the hook again writes nothing');
  });

  test('the app itself loads no streets: without the hook the geo tables stay empty', async () => {
    const bare = await startHarness('geo_no_demo');
    try {
      assert.equal(await manifest.demoData!.isSeeded(bare.knex), false);
      assert.deepEqual(await counts(bare.knex), { streets: 0, addresses: 0 });
      const res = await bare.geodecode({ lat: 48.8566, lng: 2.3522, maxResult: 1, radius: 100 });
      assert.equal(res.errors, undefined);
      assert.equal(res.data.geodecode.elements[0].kind, 'CITY');
    } finally {
      await bare.close();
    }
  });
});
