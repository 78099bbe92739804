import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPlate } from './domain/plate/formats';
import { startHarness, type Harness } from './testing/harness';

const DECODE = `query ($plate: String!, $country: String!) {
  decodePlate(plate: $plate, country: $country) {
    id vin plate make model color verified engineFuelType kba kType advancedModel
    yearOfFirstCirculation monthOfFirstCirculation dayOfFirstCirculation extraInfo { modelYear source }
  }
}`;

test('plate formats per country: valid ones normalize, invalid ones say what is expected', () => {
  const valid: [string, string, string][] = [
    ['ab-123-cd', 'FR', 'AB123CD'],
    ['1234 AB 56', 'FR', '1234AB56'],
    ['M-AB 1234', 'DE', 'MAB1234'],
    ['B-TS 3000E', 'DE', 'BTS3000E'],
    ['1234 BCD', 'ES', '1234BCD'],
    ['AB 123 CD', 'IT', 'AB123CD'],
    ['1-KBB-34', 'NL', '1KBB34'],
    ['1-ABC-234', 'BE', '1ABC234'],
    ['AB12 CDE', 'UK', 'AB12CDE'],
    ['7ABC123', 'US-CA', '7ABC123'],
    ['ABC1234', 'us-ny', 'ABC1234'],
    ['HELLO', 'US', 'HELLO'],
  ];
  for (const [plate, country, normalized] of valid)
    assert.equal(checkPlate(plate, country).plate, normalized, `${plate} ${country}`);
  const invalid: [string, string, RegExp][] = [
    ['AB-123-C', 'FR', /not a valid French plate; expected AB-123-CD/],
    ['1234 AAA', 'ES', /Spanish/],
    ['AB 12 CD', 'IT', /Italian/],
    ['ABCD-12-34', 'NL', /Dutch/],
    ['12345', 'DE', /German/],
    ['AB12 CD', 'GB', /British/],
    ['TOOLONGPLATE', 'US', /United States/],
    ['', 'FR', /French/],
  ];
  for (const [plate, country, message] of invalid) {
    assert.throws(
      () => checkPlate(plate, country),
      (e: any) => e.extensions.code === 'BAD_USER_INPUT' && message.test(e.message),
      `${plate} ${country}`,
    );
  }
  assert.throws(() => checkPlate('AB123', 'France'), /ISO 3166/);
  assert.throws(() => checkPlate('AB123', 'JP'), /not supported/);
});

describe('decodePlate', () => {
  let h: Harness;
  let alice: ReturnType<Harness['as']>;
  let mallory: ReturnType<Harness['as']>;
  before(async () => {
    h = await startHarness('vd_plate');
    alice = h.as(h.alice);
    mallory = h.as(h.mallory);
  });
  after(() => h.close());

  test('a visible fleet vehicle by plate decodes its VIN', async () => {
    const res = await alice(DECODE, { plate: 'ab 123 cd', country: 'FR' });
    assert.equal(res.errors, undefined);
    const [accord] = res.data.decodePlate;
    assert.equal(accord.vin, '1HGCM82633A004352');
    assert.equal(accord.model, 'Accord');
    assert.equal(accord.plate, 'AB-123-CD');
    assert.equal(accord.extraInfo.modelYear, 2003);
    assert.equal(accord.verified, true);
    assert.match(accord.extraInfo.source, /fleet vehicle/);
    const hidden = await mallory(DECODE, { plate: 'AB-123-CD', country: 'FR' });
    assert.equal(hidden.errors, undefined);
    assert.deepEqual(hidden.data.decodePlate, []);
  });

  test('a German fleet plate', async () => {
    const res = await alice(DECODE, { plate: 'B-MW 1234', country: 'DE' });
    assert.equal(res.errors, undefined);
    assert.equal(res.data.decodePlate[0].make, 'Volkswagen');
    assert.equal(res.data.decodePlate[0].model, 'Golf');
  });

  test('the plate registry: VIN, reference and first registration', async () => {
    const res = await alice(DECODE, { plate: 'GH-456-JK', country: 'FR' });
    assert.equal(res.errors, undefined);
    const [clio] = res.data.decodePlate;
    assert.equal(clio.make, 'Renault');
    assert.equal(clio.model, 'Clio');
    assert.equal(clio.vin, 'VF1RFB00X56123456');
    assert.equal(clio.engineFuelType, 'DIESEL');
    assert.equal(clio.kType, '111046');
    assert.equal(clio.advancedModel, 'Clio IV 1.5 dCi 90');
    assert.deepEqual(
      [clio.yearOfFirstCirculation, clio.monthOfFirstCirculation, clio.dayOfFirstCirculation],
      [2018, 3, 14],
    );
    assert.equal(clio.plate, 'GH-456-JK');
    const tesla = await alice(DECODE, { plate: 'B TS 3000 E', country: 'DE' });
    assert.equal(tesla.data.decodePlate[0].model, 'Model 3');
    assert.equal(tesla.data.decodePlate[0].engineFuelType, 'ELECTRIC');
    const us = await alice(DECODE, { plate: '7ABC123', country: 'US' });
    assert.equal(us.data.decodePlate[0].model, 'Accord');
    const nl = await alice(DECODE, { plate: '1-KBB-34', country: 'NL' });
    assert.deepEqual(
      [nl.data.decodePlate[0].make, nl.data.decodePlate[0].vin, nl.data.decodePlate[0].verified],
      ['Toyota', null, false],
    );
    for (const [plate, country, make] of [
      ['AB12 CDE', 'GB', 'Jaguar'],
      ['1234 BCD', 'ES', 'SEAT'],
      ['AB 123 CD', 'IT', 'Fiat'],
      ['1-ABC-234', 'BE', 'Peugeot'],
    ]) {
      const r = await alice(DECODE, { plate, country });
      // fleet vehicles have no plate country: the fleet's AB-123-CD also matches the Italian AB 123 CD.
      assert.ok(
        r.data.decodePlate.some((v: any) => v.make === make),
        `${plate} ${country}`,
      );
    }
  });

  test('an unknown but valid plate gives an empty list; an invalid one BAD_USER_INPUT', async () => {
    const none = await alice(DECODE, { plate: 'ZZ-999-ZZ', country: 'FR' });
    assert.deepEqual(none.data.decodePlate, []);
    const bad = await alice(DECODE, { plate: 'ZZ-99-Z', country: 'FR' });
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(bad.errors![0]!.message, /French plate/);
  });
});
