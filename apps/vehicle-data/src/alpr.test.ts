import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startHarness, type Harness } from './testing/harness';
import { GIF_BASE64, plateImage, rotatedPlateImage, sceneImage } from './testing/plate-images';

const ALPR = `query ($picture: String!, $country: String!, $region: String, $year: Int) {
  alpr(vehiclePicture: $picture, country: $country, region: $region, year: $year) {
    plate { text normalized confidence country region boundingBox { x y width height } }
    vehicle { vin make model year color engineFuelType verified details { vin plate } }
  }
}`;

describe('alpr', () => {
  let h: Harness;
  let alice: ReturnType<Harness['as']>;
  const read = (picture: Buffer | string, country: string, extra: Record<string, unknown> = {}) =>
    alice(ALPR, {
      picture: typeof picture === 'string' ? picture : picture.toString('base64'),
      country,
      ...extra,
    });
  before(async () => {
    h = await startHarness('vd_alpr');
    alice = h.as(h.alice);
  });
  after(() => h.close());

  test('a close-up of a French plate, resolved through the plate registry', async () => {
    const res = await read(await plateImage('GH-456-JK'), 'FR');
    assert.equal(res.errors, undefined);
    const { plate, vehicle } = res.data.alpr;
    assert.equal(plate.normalized, 'GH456JK');
    assert.equal(plate.text, 'GH-456-JK');
    assert.equal(plate.country, 'FR');
    assert.ok(plate.confidence > 0.5 && plate.confidence <= 1, String(plate.confidence));
    assert.ok(plate.boundingBox.width > 400);
    assert.deepEqual(
      [vehicle.make, vehicle.model, vehicle.color, vehicle.engineFuelType],
      ['Renault', 'Clio', 'Grey', 'DIESEL'],
    );
    assert.equal(vehicle.details.plate, 'GH-456-JK');
  });

  test('rotated plates (8° and -15°) are read, and resolve to a visible fleet vehicle', async () => {
    for (const angle of [8, -15]) {
      const res = await read(await rotatedPlateImage('AB-123-CD', angle), 'FR');
      assert.equal(res.errors, undefined);
      assert.equal(res.data.alpr.plate.normalized, 'AB123CD', `angle ${angle}`);
      assert.equal(res.data.alpr.vehicle.model, 'Accord');
      assert.equal(res.data.alpr.vehicle.year, 2003);
    }
  });

  test('a plate inside a larger street scene (JPEG) is located and read', async () => {
    const res = await read(await sceneImage('B-TS 3000E'), 'DE');
    assert.equal(res.errors, undefined);
    const { plate, vehicle } = res.data.alpr;
    assert.equal(plate.normalized, 'BTS3000E');
    const box = plate.boundingBox;
    assert.ok(
      Math.abs(box.x - 490) < 20 && Math.abs(box.y - 520) < 20 && box.width < 340 && box.height < 90,
      JSON.stringify(box),
    );
    assert.deepEqual([vehicle.make, vehicle.model, vehicle.vin], ['Tesla', 'Model 3', '5YJ3E1EA2KF317000']);
    const spanish = await read(await sceneImage('1234 BCD'), 'ES');
    assert.equal(spanish.data.alpr.plate.normalized, '1234BCD');
    assert.equal(spanish.data.alpr.vehicle.make, 'SEAT');
  });

  test('a US plate with its state region; the year argument picks the vehicle', async () => {
    const res = await read(
      `data:image/png;base64,${(await plateImage('7ABC123')).toString('base64')}`,
      'US',
      { region: 'CA', year: 2003 },
    );
    assert.equal(res.errors, undefined);
    assert.equal(res.data.alpr.plate.normalized, '7ABC123');
    assert.equal(res.data.alpr.plate.region, 'CA');
    assert.equal(res.data.alpr.vehicle.model, 'Accord');
  });

  test('a picture without a readable plate gives a null plate', async () => {
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#88aa66' } })
      .png()
      .toBuffer();
    const res = await read(blank, 'FR');
    assert.equal(res.errors, undefined);
    assert.deepEqual(res.data.alpr, { plate: null, vehicle: null });
  });

  test('GIF, corrupt, truncated, foreign, tiny and non-base64 pictures are refused clearly', async () => {
    const png = await plateImage('AB-123-CD');
    const jpeg = await sceneImage('AB-123-CD');
    const corruptPng = Buffer.concat([
      png.subarray(0, 8),
      Buffer.from('this is not a PNG body at all, just bytes'.repeat(4)),
    ]);
    const truncatedJpeg = jpeg.subarray(0, Math.floor(jpeg.length / 3));
    const tiny = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const cases: [string, RegExp][] = [
      [GIF_BASE64, /GIF image: GIF is not supported; send a JPEG or PNG/],
      [corruptPng.toString('base64'), /could not be decoded: the PNG data is corrupt or truncated/],
      [truncatedJpeg.toString('base64'), /could not be decoded: the JPEG data is corrupt or truncated/],
      [Buffer.from('hello, this is plain text').toString('base64'), /not a JPEG or PNG image/],
      [tiny.toString('base64'), /20×20 pixels: width and height must be between 48 and 8000/],
      ['@@not base64@@', /not valid base64/],
      ['', /vehiclePicture is empty/],
    ];
    for (const [picture, message] of cases) {
      const res = await read(picture, 'FR');
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', String(message));
      assert.match(res.errors![0]!.message, message);
    }
    const country = await read(png, 'XX');
    assert.match(country.errors![0]!.message, /not supported/);
  });
});

describe('alpr within bounds: picture size, time budget, queue, and the rest of vehicle-data unaffected', () => {
  let h: Harness;
  let alice: ReturnType<Harness['as']>;
  before(async () => {
    h = await startHarness('vd_alpr_bounds', {
      VEHICLE_DATA_ALPR_QUEUE: '1',
      VEHICLE_DATA_ALPR_TIME_BUDGET_MS: '30000',
    });
    alice = h.as(h.alice);
  });
  after(() => h.close());
  const read = (picture: Buffer) => alice(ALPR, { picture: picture.toString('base64'), country: 'DE' });

  test('a 6300×6300 striped PNG (a small file, 39.7 megapixels) is refused before it is decoded', async () => {
    const side = 6300;
    const stripes = Buffer.alloc(side * side);
    for (let row = 0; row < side; row += 2) stripes.fill(255, row * side, (row + 1) * side);
    const png = await sharp(stripes, { raw: { width: side, height: side, channels: 1 } })
      .png()
      .toBuffer();
    assert.ok(png.length < 1_000_000, `${png.length} bytes`);
    const res = await read(png);
    assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(res.errors![0]!.message, /6300×6300 pixels \(39\.7 megapixels\): at most 24 megapixels/);
  });

  test('while pictures are read, decodeVin does not wait behind them; past the queue a picture is SUBGRAPH_BUSY', async () => {
    const large = await sharp(await sceneImage('B-TS 3000E'))
      .resize({ width: 5600, height: 4200, fit: 'fill' })
      .jpeg()
      .toBuffer();
    const order: string[] = [];
    const readings = [read(large), read(large), read(large)].map((answer) =>
      answer.then((res) => {
        order.push(res.errors?.[0]?.extensions?.code === 'SUBGRAPH_BUSY' ? 'busy' : 'alpr');
        return res;
      }),
    );
    const vin = await alice('{ decodeVin(vin: "1HGCM82633A004352") { make } }');
    order.push('decodeVin');
    assert.equal(vin.errors, undefined);
    const answers = await Promise.all(readings);
    // decodeVin never waits for the picture queue: it is answered before the queued reading (on a
    // loaded machine the reading in the thread may finish first, and the refusal of the third
    // picture may come after decodeVin, as its header is read first).
    assert.equal(order.filter((o) => o === 'busy').length, 1, order.join(', '));
    assert.ok(order.indexOf('decodeVin') < order.lastIndexOf('alpr'), order.join(', '));
    const read2 = answers.filter((res) => !res.errors);
    assert.equal(read2.length, 2, 'one reading in a thread, one waiting: both answered');
    for (const res of read2) assert.equal(res.data.alpr.plate.normalized, 'BTS3000E');
    const busy = answers.find((res) => res.errors)!;
    assert.equal(busy.errors![0]!.extensions!.retryable, true);
  });
});

describe('alpr time budget', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('vd_alpr_budget', { VEHICLE_DATA_ALPR_TIME_BUDGET_MS: '1' });
  });
  after(() => h.close());

  test('a reading past its budget stops with PROCESSING_TIME_EXCEEDED, and the next reading starts afresh', async () => {
    const picture = (await plateImage('GH-456-JK')).toString('base64');
    for (let i = 0; i < 2; i++) {
      const res = await h.as(h.alice)(ALPR, { picture, country: 'FR' });
      assert.equal(res.errors?.[0]?.extensions?.code, 'PROCESSING_TIME_EXCEEDED', JSON.stringify(res.errors));
      assert.match(res.errors![0]!.message, /longer than its 0.001 s budget/);
    }
  });
});
