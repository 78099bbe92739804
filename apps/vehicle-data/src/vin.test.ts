import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './testing/harness';

const DECODE = `query ($vin: String!, $deviceId: ID, $region: String, $kba: ID, $kType: ID) {
  decodeVin(vin: $vin, deviceId: $deviceId, region: $region, kba: $kba, kType: $kType) {
    id vin make model manufacturer country decodingRegion verified bodyType bodyTypeCode engineFuelType engineCylinders
    engineDisplacement engineOutputPower doors driveType kba kType advancedModel modelCode
    extraInfo { wmi vds vis checkDigit expectedCheckDigit checkDigitValid checkDigitMandatory modelYear plantCode plantCountry source }
    options { code }
  }
}`;

describe('decodeVin', () => {
  let h: Harness;
  let alice: ReturnType<Harness['as']>;
  let mallory: ReturnType<Harness['as']>;
  before(async () => {
    h = await startHarness('vd_vin');
    alice = h.as(h.alice);
    mallory = h.as(h.mallory);
  });
  after(() => h.close());

  test('1HGCM82633A004352 is a 2003 Honda Accord (vPIC, verified)', async () => {
    const res = await alice(DECODE, { vin: '1HGCM82633A004352' });
    assert.equal(res.errors, undefined);
    const [r] = res.data.decodeVin;
    assert.equal(r.vin, '1HGCM82633A004352');
    assert.equal(r.make, 'Honda');
    assert.equal(r.model, 'Accord');
    assert.equal(r.extraInfo.modelYear, 2003);
    assert.equal(r.verified, true);
    assert.equal(r.engineFuelType, 'GASOLINE');
    assert.equal(r.decodingRegion, 'north america');
    assert.equal(r.extraInfo.checkDigitValid, true);
    assert.equal(r.extraInfo.checkDigitMandatory, true);
    assert.equal(r.extraInfo.source, 'NHTSA vPIC');
    assert.equal(r.country, 'United States');
  });

  test('a 2019 Tesla Model 3 (electric)', async () => {
    const res = await alice(DECODE, { vin: '5YJ3E1EA2KF317000' });
    assert.equal(res.errors, undefined);
    const [r] = res.data.decodeVin;
    assert.equal(r.make, 'Tesla');
    assert.equal(r.model, 'Model 3');
    assert.equal(r.extraInfo.modelYear, 2019);
    assert.equal(r.engineFuelType, 'ELECTRIC');
    assert.equal(r.verified, true);
  });

  test('a European Volkswagen (WMI WVW, free check digit position) decodes by structure', async () => {
    const res = await alice(DECODE, { vin: 'wvw zzz 1jz xw 000001' });
    assert.equal(res.errors, undefined);
    const [r] = res.data.decodeVin;
    assert.equal(r.vin, 'WVWZZZ1JZXW000001');
    assert.equal(r.make, 'Volkswagen');
    assert.equal(r.manufacturer, 'Volkswagen AG');
    assert.equal(r.country, 'Germany');
    assert.equal(r.decodingRegion, 'europe');
    assert.equal(r.extraInfo.wmi, 'WVW');
    assert.equal(r.extraInfo.modelYear, 1999);
    assert.equal(r.extraInfo.checkDigitMandatory, false);
    assert.equal(r.extraInfo.plantCode, 'W');
    assert.equal(r.verified, false);
    assert.equal(r.modelCode, 'ZZZ1J');
  });

  test('VF1 is Renault (France)', async () => {
    const res = await alice(DECODE, { vin: 'VF1RFB00X56123456' });
    const [r] = res.data.decodeVin;
    assert.equal(r.make, 'Renault');
    assert.equal(r.country, 'France');
    assert.equal(r.verified, false);
  });

  test('invalid VINs are BAD_USER_INPUT saying what is wrong', async () => {
    const cases: [string, RegExp][] = [
      ['1HGCM82633A00435', /17 characters \(got 16/],
      ['1HGCM82633A0043521', /17 characters \(got 18/],
      ['1HGCM82633AOO4352', /I, O or Q \(found O at position 12, O at position 13\)/],
      ['WVWZZZ1JZXW00000Q', /Q at position 17/],
      ['5YJ3E1EA7KF317000', /check digit: position 9 is "7" but .* give "2"/],
      ['1HGCM82633A004353', /check digit/],
      ['WVWZZZ1JZXW00000#', /"#" at position 17/],
    ];
    for (const [vin, message] of cases) {
      const res = await alice(DECODE, { vin });
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', vin);
      assert.match(res.errors![0]!.message, message);
    }
    const region = await alice(DECODE, { vin: '1HGCM82633A004352', region: 'mars' });
    assert.match(region.errors![0]!.message, /region must be one of/);
    const nothing = await alice(DECODE, { vin: '' });
    assert.match(nothing.errors![0]!.message, /Give a vin/);
  });

  test('region north america makes the check digit mandatory for any VIN', async () => {
    const res = await alice(DECODE, { vin: 'WVWZZZ1JZXW000001', region: 'north america' });
    assert.match(res.errors![0]!.message, /check digit/);
  });

  test('deviceId uses the VIN of the visible device vehicle when vin is empty', async () => {
    const res = await alice(DECODE, { vin: '', deviceId: h.device });
    assert.equal(res.errors, undefined);
    assert.equal(res.data.decodeVin[0].model, 'Accord');
    const hidden = await mallory(DECODE, { vin: '', deviceId: h.device });
    assert.equal(hidden.errors, undefined);
    assert.deepEqual(hidden.data.decodeVin, []);
  });

  test('kba and kType look up the vehicle reference table', async () => {
    const byKba = await alice(DECODE, { vin: '', kba: '0603/BFY' });
    assert.equal(byKba.errors, undefined);
    const [golf] = byKba.data.decodeVin;
    assert.equal(golf.make, 'Volkswagen');
    assert.equal(golf.advancedModel, 'Golf VII 1.4 TSI');
    assert.equal(golf.kType, '100573');
    assert.equal(golf.engineDisplacement, 1395);
    const byKType = await alice(DECODE, { vin: '', kType: '134542' });
    assert.equal(byKType.data.decodeVin[0].model, 'Model 3');
    const merged = await alice(DECODE, { vin: 'WVWZZZ1JZXW000001', kba: '0603BFY' });
    assert.equal(merged.data.decodeVin[0].model, 'Golf');
    assert.equal(merged.data.decodeVin[0].kba, '0603BFY');
    const unknown = await alice(DECODE, { vin: '', kba: '9999ZZZ' });
    assert.deepEqual(unknown.data.decodeVin, []);
  });
});
