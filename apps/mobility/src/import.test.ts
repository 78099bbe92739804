/**
 * The transactions importer: the documented CSV layout, a provider's headers through --mapping,
 * JSON (array and NDJSON), every problem by line and column (or JSON path) with nothing written,
 * and detection on what was imported.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { scratchDir } from '@fleetgraph/testing';
import manifest from './manifest';

let h: SubgraphHarness;
let F: any;
let dir: string;
const NOW = new Date('2026-04-15T00:00:00Z');
const run = (file: string, options: Record<string, string> = {}) =>
  manifest.importers!.transactions!.run(h.knex, file, { log: () => {}, now: NOW, options });
const count = async () => Number((await h.knex('mobility.transactions').count('* as n'))[0]!.n);

before(async () => {
  h = await startSubgraphHarness(manifest, { label: 'mobility_import' });
  F = h.facts['fleet-core'];
  dir = scratchDir('mobility-import');
});
after(() => h.close());

test('CSV in the documented layout: rows resolved to vehicle, device, driver and group; detection runs', async () => {
  const file = join(dir, 'ok.csv');
  await writeFile(
    file,
    [
      'transactedAt,quantity,quantityUnit,productCategory,transactionType,vehiclePlate,driverLabel,grossUnitPrice,grossTotal,currency,stationCity,stationPostalCode,stationLatitude,stationLongitude,externalId,odometerKm',
      '2026-03-01T09:05:00Z,35.5,L,DIESEL,REFILL,AB-101-CD,Anna Becker,1.70,60.35,EUR,Hamburg,20095,53.6,10.05,C-1,10000',
      '2026-03-03T09:10:00Z,300,L,DIESEL,REFILL,AB-101-CD,,1.70,510,EUR,Hamburg,20095,53.6,10.052,C-2,10070',
    ].join('\n'),
  );
  const outcome = await run(file, { 'external-source': 'ACMECARD' });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  assert.equal(outcome.ok && outcome.summary.transactions, 2);
  const rows = await h
    .knex('mobility.transactions')
    .where('external_source', 'ACMECARD')
    .orderBy('external_id');
  assert.deepEqual(
    rows.map((r: any) => [r.vehicle_id, r.device_id, r.driver_id, r.group_id, r.energy_type, r.source]),
    [
      [F.vehicles.depot[0], F.depotDevices[0], F.drivers.anna, F.groups.depot, 'DIESEL', 'FUEL_CARD'],
      [F.vehicles.depot[0], F.depotDevices[0], null, F.groups.depot, 'DIESEL', 'FUEL_CARD'],
    ],
  );
  const codes = (await h.knex('mobility.anomalies').where('transaction_id', rows[1].id).pluck('code')).sort();
  assert.ok(codes.includes('QUANTITY_ABOVE_CAPACITY'), codes.join());
});

test("a provider's own headers through --mapping, with ; as delimiter", async () => {
  const file = join(dir, 'provider.csv');
  await writeFile(
    file,
    [
      'Datum;Menge;Einheit;Produkt;Art;Kennzeichen;Beleg',
      '2026-03-05T10:00:00+01:00;20;L;DIESEL;REFILL;AB-111-CD;P-1',
    ].join('\n'),
  );
  const outcome = await run(file, {
    delimiter: ';',
    'external-source': 'PROVIDER',
    mapping:
      'Datum:transactedAt,Menge:quantity,Einheit:quantityUnit,Produkt:productCategory,Art:transactionType,Kennzeichen:vehiclePlate,Beleg:externalId',
  });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  const row = await h
    .knex('mobility.transactions')
    .where({ external_source: 'PROVIDER', external_id: 'P-1' })
    .first();
  assert.equal(row.vehicle_id, F.vehicles.south[1]);
  assert.equal(row.transacted_at.toISOString(), '2026-03-05T09:00:00.000Z');
});

test('every problem by line and column, nothing written', async () => {
  const before1 = await count();
  const file = join(dir, 'bad.csv');
  await writeFile(
    file,
    [
      'transactedAt,quantity,quantityUnit,productCategory,transactionType,vehiclePlate,externalId,stationLatitude',
      '2026-03-01,abc,LITRE,DIESEL,REFILL,AB-101-CD,E-1,53.6',
      '2026-03-01T10:00:00Z,10,L,DIESEL,REFILL,ZZ-999-ZZ,E-2,95',
      '2026-03-01T10:00:00Z,10,L,DIESEL,,AB-101-CD,C-1,53',
      '2026-03-01T11:00:00Z,10,L,DIESEL,REFILL,AB-101-CD,E-4,53',
      '2026-03-01T12:00:00Z,10,L,DIESEL,REFILL,AB-101-CD,E-4,53',
    ].join('\n'),
  );
  const outcome = await run(file, { 'external-source': 'ACMECARD' });
  assert.equal(outcome.ok, false);
  assert.deepEqual(!outcome.ok && outcome.problems, [
    'line 2, column 2 (quantity): quantity must be a number (got "abc")',
    'line 2, column 3 (quantityUnit): quantityUnit must be one of L, KWH, KG, GAL_US, GAL_UK, UNIT (got "LITRE")',
    'line 2, column 1 (transactedAt): transactedAt must be an ISO 8601 date-time with a time zone (got "2026-03-01")',
    'line 3, column 8 (stationLatitude): stationLatitude must be between -90 and 90',
    'line 3, column 6 (vehiclePlate): no vehicle has plate ZZ-999-ZZ',
    'line 4, column 5 (transactionType): transactionType is required',
    'line 6, column 7 (externalId): externalId E-4 repeats line 5',
  ]);
  assert.equal(await count(), before1);
  const again = join(dir, 'again.csv');
  await writeFile(
    again,
    [
      'transactedAt,quantity,quantityUnit,productCategory,transactionType,vehiclePlate,externalId',
      '2026-03-09T10:00:00Z,10,L,DIESEL,REFILL,AB-101-CD,C-1',
    ].join('\n'),
  );
  const dup = await run(again, { 'external-source': 'ACMECARD' });
  assert.deepEqual(!dup.ok && dup.problems, ['line 2: externalId C-1 of ACMECARD was already imported']);
  const unknown = join(dir, 'unknown.csv');
  await writeFile(unknown, ['Datum,quantity', 'x,1'].join('\n'));
  const u = await run(unknown);
  assert.ok(!u.ok && u.problems[0]!.startsWith('line 1: unknown columns "Datum"'));
});

test('JSON arrays and NDJSON; problems by JSON path or line', async () => {
  const array = join(dir, 'tx.json');
  await writeFile(
    array,
    JSON.stringify([
      {
        transactedAt: '2026-03-06T10:00:00Z',
        quantity: 40,
        quantityUnit: 'KWH',
        productCategory: 'ELECTRICITY',
        transactionType: 'CHARGE',
        vehicleId: F.vehicles.depot[1],
        externalId: 'J-1',
      },
    ]),
  );
  const ok = await run(array, { 'external-source': 'JSONCARD' });
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.equal(
    (await h.knex('mobility.transactions').where({ external_id: 'J-1' }).first()).energy_type,
    'ELECTRIC',
  );
  const badArray = join(dir, 'bad.json');
  await writeFile(
    badArray,
    JSON.stringify([
      {
        transactedAt: '2026-03-06T10:00:00Z',
        quantity: -1,
        quantityUnit: 'L',
        productCategory: 'DIESEL',
        transactionType: 'REFILL',
        vehicleVin: 'NOPE',
      },
    ]),
  );
  const bad = await run(badArray);
  assert.deepEqual(!bad.ok && bad.problems, [
    '$[0].quantity: quantity must not be negative',
    '$[0].vehicleVin: no vehicle has VIN NOPE',
  ]);
  const nd = join(dir, 'tx.ndjson');
  await writeFile(
    nd,
    [
      JSON.stringify({
        transactedAt: '2026-03-07T10:00:00Z',
        quantity: 10,
        quantityUnit: 'L',
        productCategory: 'DIESEL',
        transactionType: 'REFILL',
        deviceImei: F.depotDevices[0],
        externalId: 'N-1',
      }),
      '{oops',
    ].join('\n'),
  );
  const ndBad = await run(nd, { format: 'json' });
  assert.equal(ndBad.ok, false);
  assert.ok(!ndBad.ok && ndBad.problems[0]!.startsWith('line 2: not JSON'));
  assert.equal(await h.knex('mobility.transactions').where({ external_id: 'N-1' }).first(), undefined);
});
