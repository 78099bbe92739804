import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './testing/harness';

const DECODE = `query ($vin: String!, $codes: [String]!, $protocol: DtcProtocol!, $region: DtcRegion!, $make: String, $language: Language, $oem: Boolean) {
  decodeDtcs(vin: $vin, codes: $codes, protocol: $protocol, region: $region, make: $make, language: $language, oem: $oem) {
    id code description subdescription information cause effect recommendation warning classification mdiDtc protocol
    warningImg systemCategory riskSafety riskDamage riskAvailability riskEmissions
  }
}`;

describe('decodeDtcs', () => {
  let h: Harness;
  let alice: ReturnType<Harness['as']>;
  const decode = (vars: Record<string, unknown>) =>
    alice(DECODE, { vin: '', protocol: 'OBD2', region: 'EUROPE', ...vars });
  before(async () => {
    h = await startHarness('vd_dtc');
    alice = h.as(h.alice);
  });
  after(() => h.close());

  test('generic powertrain codes in English: P0300 misfire, P0420 catalyst', async () => {
    const res = await decode({ codes: ['P0300', 'p0420'], language: 'EN' });
    assert.equal(res.errors, undefined);
    const [misfire, catalyst] = res.data.decodeDtcs;
    assert.equal(misfire.code, 'P0300');
    assert.match(misfire.description, /random.*misfire/i);
    assert.equal(misfire.classification, 'GENERIC');
    assert.equal(misfire.systemCategory, 'Powertrain / Ignition system or misfire');
    assert.equal(misfire.mdiDtc, '0300');
    assert.equal(misfire.protocol, 'OBD2');
    assert.equal(catalyst.code, 'P0420');
    assert.match(catalyst.description, /catalyst.*efficiency.*bank 1/i);
  });

  test('the same codes in German', async () => {
    const res = await decode({ codes: ['P0300', 'P0420', 'U0100', 'B0001'], language: 'DE' });
    assert.equal(res.errors, undefined);
    const [misfire, catalyst, network, body] = res.data.decodeDtcs;
    assert.match(misfire.description, /Fehlzündung/);
    assert.match(catalyst.description, /Katalysator/);
    assert.equal(network.description, 'Kommunikation mit ECM/PCM "A" verloren');
    assert.match(network.information, /Steuergerät/);
    assert.match(network.cause, /ECM ohne Spannung.*\(wahrscheinlich\)/);
    assert.match(network.subdescription, /^Netzwerk – generisch/);
    assert.match(network.recommendation, /geschätzte Kosten 50–2000 EUR/);
    assert.doesNotMatch(network.recommendation, /estimated|labour/);
    assert.ok(body.description.length > 5);
    assert.doesNotMatch(body.description, /Unknown|Unbekannt/);
  });

  test('U0100 and B0001 in English carry OBDex details and risks', async () => {
    const res = await decode({ codes: ['U0100', 'B0001'], language: 'EN' });
    const [network, body] = res.data.decodeDtcs;
    assert.equal(network.description, 'Lost Communication with ECM/PCM "A"');
    assert.equal(network.mdiDtc, 'C100');
    assert.equal(network.classification, 'GENERIC');
    assert.match(network.cause, /ECM unpowered/);
    assert.match(network.effect, /warning lights/);
    assert.match(network.warning, /Malfunction indicator lamp/);
    assert.match(network.warning, /Limp mode possible/);
    assert.match(network.recommendation, /estimated cost 50–2000 EUR/);
    assert.equal(network.riskAvailability, 'HIGH');
    assert.equal(network.riskEmissions, 'NO');
    assert.equal(network.riskDamage, 'HIGH');
    assert.equal(network.warningImg, 'mil');
    assert.equal(body.code, 'B0001');
    assert.equal(body.mdiDtc, '8001');
    assert.match(body.systemCategory, /^Body/);
    assert.ok(body.information);
  });

  test('language without data falls back to English', async () => {
    const res = await decode({ codes: ['U0100'], language: 'FR' });
    assert.equal(res.data.decodeDtcs[0].description, 'Lost Communication with ECM/PCM "A"');
  });

  test('a manufacturer code with oem: true uses the make table (argument or the VIN brand)', async () => {
    const byMake = await decode({ codes: ['P1106'], make: 'Honda', oem: true, region: 'NORTH_AMERICA' });
    assert.equal(byMake.errors, undefined);
    const [honda] = byMake.data.decodeDtcs;
    assert.equal(honda.description, 'BARO Circuit Range Performance Malfunction');
    assert.equal(honda.classification, 'MANUFACTURER_SPECIFIC');
    assert.match(honda.id, /wal33d:honda/);
    const byVin = await decode({ vin: '1HGCM82633A004352', codes: ['P1106'], oem: true });
    assert.equal(byVin.data.decodeDtcs[0].description, 'BARO Circuit Range Performance Malfunction');
    const acura = await decode({ codes: ['P1106'], make: 'Acura', oem: true });
    assert.match(acura.data.decodeDtcs[0].id, /wal33d:(acura|honda)/);
  });

  test('an unknown code keeps its structure with a clear unknown description', async () => {
    const res = await decode({ codes: ['P1FFF', null], make: 'Honda' });
    const [unknown, missing] = res.data.decodeDtcs;
    assert.match(unknown.description, /^Unknown code P1FFF/);
    assert.equal(unknown.classification, 'MANUFACTURER_SPECIFIC');
    assert.equal(unknown.mdiDtc, '1FFF');
    assert.equal(unknown.information, null);
    assert.equal(missing, null);
  });

  test('UDS codes may carry a failure-type byte', async () => {
    const res = await decode({ codes: ['P0300-1F'], protocol: 'UDS' });
    assert.equal(res.data.decodeDtcs[0].code, 'P0300-1F');
    assert.match(res.data.decodeDtcs[0].subdescription, /failure type 0x1F/);
    const obd = await decode({ codes: ['P0300-1F'], protocol: 'OBD2' });
    assert.equal(obd.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('malformed codes are BAD_USER_INPUT naming the code', async () => {
    for (const bad of ['P03', 'X0300', 'P4300', 'P03G0', '']) {
      const res = await decode({ codes: ['P0300', bad] });
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', bad);
      assert.ok(res.errors![0]!.message.includes(`"${bad}"`), res.errors![0]!.message);
      assert.equal(res.data?.decodeDtcs ?? null, null);
    }
  });

  test('an invalid VIN is BAD_USER_INPUT', async () => {
    const res = await decode({ vin: 'NOTAVIN', codes: ['P0300'] });
    assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(res.errors![0]!.message, /17 characters/);
  });

  test('no token is UNAUTHENTICATED', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: {
        query: '{ decodeDtcs(vin: "", codes: ["P0300"], protocol: OBD2, region: EUROPE) { code } }',
      },
    });
    assert.equal(res.statusCode, 401);
  });
});
