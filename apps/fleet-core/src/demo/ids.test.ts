import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Rng,
  hasValidVinCheckDigit,
  isValidImei,
  luhnCheckDigit,
  makeImei,
  makeVin,
  uuidV5,
  vinCheckDigit,
  vinYearCode,
} from './ids';

test('Luhn and IMEI: a published IMEI verifies, a changed digit does not', () => {
  assert.equal(luhnCheckDigit('49015420323751'), 8);
  assert.ok(isValidImei('490154203237518'));
  assert.ok(!isValidImei('490154203237519'));
  assert.ok(!isValidImei('49015420323751'));
  assert.ok(isValidImei(makeImei('35693810', 42)));
});

test('VIN check digit (position 9) matches the FMVSS 115 example and generated VINs verify', () => {
  assert.ok(hasValidVinCheckDigit('1M8GDM9AXKP042788'));
  assert.ok(hasValidVinCheckDigit('1HGCM82633A004352'));
  assert.equal(vinCheckDigit('WVWZZZ1JZ3W386752'), '9');
  assert.ok(!hasValidVinCheckDigit('1M8GDM9A1KP042788'));
  const vin = makeVin('WF0', 'XXTTG', 2022, 'K', 412345);
  assert.equal(vin.length, 17);
  assert.ok(hasValidVinCheckDigit(vin));
  assert.doesNotMatch(vin, /[IOQ]/);
  assert.equal(vinYearCode(2010), 'A');
  assert.equal(vinYearCode(2024), 'R');
});

test('name-based UUIDs are stable, version 5, and differ by name', () => {
  const a = uuidV5('account:demo@fleetgraph.dev');
  assert.equal(a, uuidV5('account:demo@fleetgraph.dev'));
  assert.notEqual(a, uuidV5('account:other@fleetgraph.dev'));
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('the PRNG repeats its sequence for a seed', () => {
  const one = new Rng('seed');
  const two = new Rng('seed');
  const a = Array.from({ length: 5 }, () => one.int(0, 1000));
  assert.deepEqual(
    a,
    Array.from({ length: 5 }, () => two.int(0, 1000)),
  );
  assert.notDeepEqual(
    a,
    Array.from({ length: 5 }, () => new Rng('other').int(0, 1000)),
  );
});
