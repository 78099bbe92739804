/** The GeoJSON import: formats of common OSM tools, validation errors, and data found afterwards. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from '@fleetgraph/db';
import { GeoJsonError, importStreets, parseStreetsGeoJson, segmentsOf } from './import/geojson';
import { demoStreetsGeoJson } from './demo/streets';
import { haversineMeters } from './domain/distance';
import manifest from './manifest';
import { startHarness, type Harness } from './testing/harness';

const sample = {
  type: 'FeatureCollection',
  features: [
    // osmium export style: tags as properties, @id
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-58.3816, -34.6037] },
      properties: {
        '@id': 'n1',
        'addr:street': 'Avenida de Mayo',
        'addr:housenumber': '575',
        'addr:postcode': 'C1084',
        'addr:city': 'Buenos Aires',
      },
    },
    // osmtogeojson style: tags nested
    {
      type: 'Feature',
      id: 'way/2',
      geometry: {
        type: 'LineString',
        coordinates: [
          [-58.383, -34.609],
          [-58.379, -34.6092],
        ],
      },
      properties: { tags: { highway: 'residential', name: 'Avenida Belgrano' } },
    },
    // ogr2ogr style: other_tags hstore string; a building polygon with an address
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-58.38, -34.6],
            [-58.3798, -34.6],
            [-58.3798, -34.6002],
            [-58.38, -34.6002],
            [-58.38, -34.6],
          ],
        ],
      },
      properties: {
        osm_id: '3',
        other_tags: '"addr:housenumber"=>"1200","addr:street"=>"Bartolomé Mitre","building"=>"yes"',
      },
    },
    // unnamed highway: a street without name
    {
      type: 'Feature',
      geometry: {
        type: 'MultiLineString',
        coordinates: [
          [
            [-58.385, -34.61],
            [-58.385, -34.613],
          ],
        ],
      },
      properties: { highway: 'service' },
    },
    // irrelevant features are skipped
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-58.38, -34.6] },
      properties: { amenity: 'cafe' },
    },
    { type: 'Feature', geometry: null, properties: { name: 'nowhere' } },
  ],
};

describe('parsing', () => {
  test('reads addresses and streets as written by osmium, osmtogeojson and ogr2ogr', () => {
    const parsed = parseStreetsGeoJson(sample);
    assert.equal(parsed.skipped, 2);
    assert.deepEqual(
      parsed.addresses.map((a) => [a.street, a.houseNumber, a.postalCode, a.city, a.sourceId]),
      [
        ['Avenida de Mayo', '575', 'C1084', 'Buenos Aires', 'n1'],
        ['Bartolomé Mitre', '1200', null, null, null],
      ],
    );
    assert.ok(
      Math.abs(parsed.addresses[1]!.lat - -34.6001) < 1e-4,
      'building address at its outer ring mean',
    );
    assert.deepEqual(
      parsed.streets.map((s) => [s.name, s.highway, s.sourceId, s.lines.length]),
      [
        ['Avenida Belgrano', 'residential', 'way/2', 1],
        [null, 'service', null, 1],
      ],
    );
  });

  test('reports every structural problem with the feature index, and writes nothing', () => {
    assert.throws(
      () => parseStreetsGeoJson({ type: 'Feature' }),
      (e: unknown) => e instanceof GeoJsonError && /must be a GeoJSON FeatureCollection/.test(e.message),
    );
    assert.throws(() => parseStreetsGeoJson([]), GeoJsonError);
    const bad = {
      type: 'FeatureCollection',
      features: [
        sample.features[0],
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [200, 10] },
          properties: { 'addr:street': 'X' },
        },
        {
          type: 'Feature',
          geometry: { type: 'LineString', coordinates: [[1, 2]] },
          properties: { highway: 'primary' },
        },
        { type: 'Feature', geometry: { type: 'Circle', coordinates: [1, 2] }, properties: {} },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 95] }, properties: {} },
        { type: 'Feature', geometry: { type: 'Point', coordinates: ['1', 2] } },
      ],
    };
    try {
      parseStreetsGeoJson(bad);
      assert.fail('expected a GeoJsonError');
    } catch (error) {
      assert.ok(error instanceof GeoJsonError);
      const text = error.problems.join('\n');
      assert.match(text, /features\[1\]\.geometry\.coordinates: longitude must be between -180 and 180/);
      assert.match(text, /features\[2\]\.geometry\.coordinates: a line needs at least 2 positions/);
      assert.match(text, /features\[3\]\.geometry\.type/);
      assert.match(text, /features\[4\]\.geometry\.coordinates: latitude must be between -90 and 90/);
      assert.match(text, /features\[5\]\.geometry\.coordinates\[0\]/);
      assert.ok(!/features\[0\]/.test(text));
      assert.match(error.message, /invalid GeoJSON \(5 problems\)/);
    }
  });

  test('long segments are cut into pieces of at most 200 m', () => {
    const pieces = segmentsOf([
      [13.3777, 52.5163],
      [13.396, 52.5175],
    ]);
    assert.equal(pieces.length, Math.ceil(haversineMeters(52.5163, 13.3777, 52.5175, 13.396) / 200));
    for (const p of pieces) assert.ok(haversineMeters(p.lat1, p.lng1, p.lat2, p.lng2) <= 200.001);
    assert.deepEqual([pieces[0]!.lng1, pieces.at(-1)!.lat2], [13.3777, 52.5175]);
  });

  test('the demo dataset is deterministic and valid', () => {
    assert.deepEqual(demoStreetsGeoJson(), demoStreetsGeoJson());
    const parsed = parseStreetsGeoJson(demoStreetsGeoJson());
    assert.equal(parsed.skipped, 0);
    assert.equal(parsed.streets.length, 15);
  });
});

describe('importing into the database', () => {
  let h: Harness;
  let knex: Knex;
  before(async () => {
    h = await startHarness('geo_import', { demoStreets: true });
    knex = h.knex;
  });
  after(() => h.close());

  test('imported addresses and streets are found; --replace empties the tables first', async () => {
    const summary = await importStreets(knex, parseStreetsGeoJson(sample), { replace: true });
    assert.deepEqual(summary, { streets: 2, segments: 4, addresses: 2, skipped: 2 });
    const { rows } = await knex.raw('select count(*) as n from geo.addresses');
    assert.equal(rows[0].n, 2, 'demo rows were replaced');

    const res = await h.geodecode({ lat: -34.6037, lng: -58.3816, maxResult: 3, radius: 1000, lang: 'es' });
    assert.equal(res.errors, undefined);
    const [first] = res.data.geodecode.elements;
    assert.deepEqual(
      [first.kind, first.street, first.houseNumber, first.city, first.country, first.countryCode],
      ['ADDRESS', 'Avenida de Mayo', '575', 'Buenos Aires', 'Argentina', 'AR'],
    );
    const belgrano = await h.geodecode({ lat: -34.6091, lng: -58.381, radius: 50 });
    assert.deepEqual(
      belgrano.data.geodecode.elements.map((e: { street: string; city: string }) => [e.street, e.city]),
      [['Avenida Belgrano', 'Buenos Aires']],
    );

    await importStreets(knex, parseStreetsGeoJson(sample));
    const again = await knex.raw('select count(*) as n from geo.addresses');
    assert.equal(again.rows[0].n, 4, 'without replace, rows are added');
  });

  test("the manifest's streets importer lists every problem and writes nothing, or imports the file", async () => {
    const importer = manifest.importers!.streets!;
    const dir = await mkdtemp(join(tmpdir(), 'geo-import-'));
    const context = (options: Record<string, string>) => ({ log: () => {}, now: new Date(0), options });
    const addresses = async () =>
      Number((await knex.raw('select count(*) as n from geo.addresses')).rows[0].n);
    try {
      const before = await addresses();
      assert.ok(before > 0);
      const bad = join(dir, 'bad.geojson');
      await writeFile(
        bad,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            sample.features[0],
            { type: 'Feature', geometry: { type: 'Point', coordinates: [200, 10] }, properties: {} },
            { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 95] }, properties: {} },
          ],
        }),
      );
      const refused = await importer.run(knex, bad, context({ replace: 'true' }));
      assert.equal(refused.ok, false);
      assert.ok(!refused.ok);
      assert.match(refused.problems.join('\n'), /features\[1\]\.geometry\.coordinates: longitude/);
      assert.match(refused.problems.join('\n'), /features\[2\]\.geometry\.coordinates: latitude/);
      assert.equal(await addresses(), before, 'nothing written, not even the replace');

      const notJson = join(dir, 'broken.geojson');
      await writeFile(notJson, '{ "type": ');
      const broken = await importer.run(knex, notJson, context({}));
      assert.ok(!broken.ok && /not valid JSON/.test(broken.problems[0]!));
      const option = await importer.run(knex, notJson, context({ replce: 'true' }));
      assert.ok(!option.ok && /--replce: unknown option/.test(option.problems[0]!));

      const good = join(dir, 'good.geojson');
      await writeFile(good, JSON.stringify(sample));
      const done = await importer.run(knex, good, context({ replace: 'true' }));
      assert.deepEqual(done, { ok: true, summary: { streets: 2, segments: 4, addresses: 2, skipped: 2 } });
      assert.equal(await addresses(), 2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
