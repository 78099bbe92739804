import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceFill } from './engine';
import {
  odometer,
  quantityAboveCapacity,
  refillTooSoon,
  THRESHOLDS,
  unitPriceOutlier,
  vehicleNotAtStation,
  wrongEnergy,
} from './rules';
import type { Finding, RuleContext, Verdict } from './types';

const AT = new Date('2026-03-10T12:00:00Z');
const H = 3_600_000;

function context(
  over: Omit<Partial<RuleContext>, 'tx'> & { tx?: Partial<RuleContext['tx']> } = {},
): RuleContext {
  const { tx, ...rest } = over;
  return {
    tx: {
      id: 'tx',
      organizationId: 'org',
      transactedAt: AT,
      quantity: 50,
      quantityUnit: 'L',
      energyType: 'DIESEL',
      productCategory: 'DIESEL',
      transactionType: 'REFILL',
      odometerKm: 10_500,
      grossUnitPrice: 1.7,
      currency: 'EUR',
      stationLatitude: 53.6,
      stationLongitude: 10.0,
      stationPostalCode: '20095',
      vehicleId: 'v',
      ...tx,
    },
    vehicle: {
      id: 'v',
      fuelType: 'DIESEL',
      vehicleType: 'VAN',
      fuelTankCapacityL: 80,
      batteryCapacityKwh: null,
    },
    positions: [
      {
        recordedAt: new Date(AT.getTime() - 5 * 60_000),
        latitude: 53.601,
        longitude: 10.0,
        source: 'TRIP_END',
      },
    ],
    previous: { id: 'prev', transactedAt: new Date(AT.getTime() - 48 * H), odometerKm: 10_000, quantity: 40 },
    distanceSincePreviousKm: 500,
    vehicleHasTrips: true,
    priceSample: { median: 1.7, n: 10, area: '20', week: '2026-03-09' },
    ...rest,
  };
}

const one = (v: Verdict | Verdict[] | null, code?: string): Verdict | null =>
  Array.isArray(v) ? (v.find((x) => !code || x.code === code) ?? null) : v;
const kind = (v: Verdict | Verdict[] | null, code?: string) => one(v, code)?.kind ?? null;

describe('QUANTITY_ABOVE_CAPACITY', () => {
  test('more than the tank plus tolerance is HIGH, far more is CRITICAL, with capacity evidence', () => {
    const f = one(quantityAboveCapacity.evaluate(context({ tx: { quantity: 90 } }))) as Finding;
    assert.equal(f.kind, 'anomaly');
    assert.equal(f.severity, 'HIGH');
    assert.equal(f.expected, 80);
    assert.equal(f.observed, 90);
    assert.equal(f.evidence.capacitySource, 'VEHICLE');
    assert.equal(
      (one(quantityAboveCapacity.evaluate(context({ tx: { quantity: 130 } }))) as Finding).severity,
      'CRITICAL',
    );
  });
  test('within the tolerance passes; gallons are converted; battery capacity for charges', () => {
    assert.equal(kind(quantityAboveCapacity.evaluate(context({ tx: { quantity: 80 * 1.05 + 2 } }))), 'pass');
    assert.equal(
      kind(quantityAboveCapacity.evaluate(context({ tx: { quantity: 25, quantityUnit: 'GAL_US' } }))),
      'anomaly',
    );
    const ev = context({
      tx: {
        quantity: 70,
        quantityUnit: 'KWH',
        energyType: 'ELECTRIC',
        productCategory: 'ELECTRICITY',
        transactionType: 'CHARGE',
      },
      vehicle: {
        id: 'v',
        fuelType: 'ELECTRIC',
        vehicleType: 'CAR',
        fuelTankCapacityL: null,
        batteryCapacityKwh: 75,
      },
    });
    assert.equal(kind(quantityAboveCapacity.evaluate(ev)), 'pass');
    assert.equal(kind(quantityAboveCapacity.evaluate({ ...ev, tx: { ...ev.tx, quantity: 90 } })), 'anomaly');
  });
  test('unknown capacity uses the documented default of the vehicle type; no vehicle: not applicable', () => {
    const f = one(
      quantityAboveCapacity.evaluate(
        context({
          tx: { quantity: 150 },
          vehicle: {
            id: 'v',
            fuelType: 'DIESEL',
            vehicleType: 'VAN',
            fuelTankCapacityL: null,
            batteryCapacityKwh: null,
          },
        }),
      ),
    ) as Finding;
    assert.equal(f.expected, THRESHOLDS.defaultTankL.VAN);
    assert.equal(f.evidence.capacitySource, 'DEFAULT_VAN');
    assert.equal(quantityAboveCapacity.evaluate(context({ vehicle: null })), null);
  });
});

describe('VEHICLE_NOT_AT_STATION', () => {
  test('the nearest position in time far from the station is a finding with the position as evidence', () => {
    const f = one(
      vehicleNotAtStation.evaluate(
        context({ positions: [{ recordedAt: AT, latitude: 48.137, longitude: 11.575, source: 'READING' }] }),
      ),
    ) as Finding;
    assert.equal(f.kind, 'anomaly');
    assert.equal(f.severity, 'CRITICAL');
    assert.ok(f.observed! > 500);
    assert.equal((f.evidence.position as { source: string }).source, 'READING');
  });
  test('near the station passes; the allowance grows with the time between position and transaction', () => {
    assert.equal(kind(vehicleNotAtStation.evaluate(context())), 'pass');
    const far10km = {
      recordedAt: new Date(AT.getTime() - 30 * 60_000),
      latitude: 53.69,
      longitude: 10.0,
      source: 'TRIP_END',
    };
    assert.equal(kind(vehicleNotAtStation.evaluate(context({ positions: [far10km] }))), 'pass');
    const far10kmNow = { ...far10km, recordedAt: AT };
    assert.equal(kind(vehicleNotAtStation.evaluate(context({ positions: [far10kmNow] }))), 'anomaly');
  });
  test('no position in the window is inconclusive; no station coordinates: not applicable', () => {
    assert.equal(kind(vehicleNotAtStation.evaluate(context({ positions: [] }))), 'inconclusive');
    assert.equal(vehicleNotAtStation.evaluate(context({ tx: { stationLatitude: null } })), null);
  });
});

describe('WRONG_ENERGY', () => {
  const vehicle = (fuelType: string) => ({
    id: 'v',
    fuelType,
    vehicleType: 'CAR',
    fuelTankCapacityL: 50,
    batteryCapacityKwh: 60,
  });
  test('diesel into a gasoline car, fuel for an electric vehicle, charging a non-plug-in', () => {
    assert.equal(
      (one(wrongEnergy.evaluate(context({ vehicle: vehicle('GASOLINE') }))) as Finding).severity,
      'CRITICAL',
    );
    assert.equal(kind(wrongEnergy.evaluate(context({ vehicle: vehicle('ELECTRIC') }))), 'anomaly');
    const charge = {
      energyType: 'ELECTRIC',
      productCategory: 'ELECTRICITY',
      transactionType: 'CHARGE',
      quantityUnit: 'KWH',
    };
    const f = one(wrongEnergy.evaluate(context({ vehicle: vehicle('HYBRID'), tx: charge }))) as Finding;
    assert.equal(f.severity, 'HIGH');
    assert.deepEqual(f.evidence.accepted, ['GASOLINE', 'DIESEL']);
  });
  test('matching energy passes (plug-in hybrids take fuel and electricity); unknown fuel type or non-energy: not applicable', () => {
    assert.equal(kind(wrongEnergy.evaluate(context())), 'pass');
    const charge = {
      energyType: 'ELECTRIC',
      productCategory: 'ELECTRICITY',
      transactionType: 'CHARGE',
      quantityUnit: 'KWH',
    };
    assert.equal(
      kind(wrongEnergy.evaluate(context({ vehicle: vehicle('PLUGIN_HYBRID'), tx: charge }))),
      'pass',
    );
    assert.equal(wrongEnergy.evaluate(context({ vehicle: vehicle('OTHER') })), null);
    assert.equal(
      wrongEnergy.evaluate(
        context({ tx: { energyType: 'NONE', productCategory: 'ADBLUE', transactionType: 'PURCHASE' } }),
      ),
      null,
    );
  });
});

describe('ODOMETER_BACKWARDS and IMPOSSIBLE_DISTANCE', () => {
  test('a lower odometer than at the previous fill', () => {
    const f = one(odometer.evaluate(context({ tx: { odometerKm: 9_000 } })), 'ODOMETER_BACKWARDS') as Finding;
    assert.equal(f.kind, 'anomaly');
    assert.equal(f.expected, 10_000);
    assert.equal(f.observed, 9_000);
  });
  test('more km than the maximum average speed allows', () => {
    const v = odometer.evaluate(context({ tx: { odometerKm: 20_000 } }));
    assert.equal(kind(v, 'IMPOSSIBLE_DISTANCE'), 'anomaly');
    assert.equal(kind(v, 'ODOMETER_BACKWARDS'), 'pass');
  });
  test('plausible progress passes both; no previous odometer: not applicable', () => {
    const v = odometer.evaluate(context());
    assert.equal(kind(v, 'ODOMETER_BACKWARDS'), 'pass');
    assert.equal(kind(v, 'IMPOSSIBLE_DISTANCE'), 'pass');
    assert.equal(odometer.evaluate(context({ previous: null })), null);
  });
  test('the reference fill skips a previous reading inconsistent with the one before it', () => {
    const t = (h: number) => new Date(AT.getTime() - h * H);
    const wrong = { id: 'wrong', transactedAt: t(24), odometerKm: 5_000, quantity: 40 };
    const good = { id: 'good', transactedAt: t(48), odometerKm: 10_000, quantity: 40 };
    const older = { id: 'older', transactedAt: t(96), odometerKm: 9_500, quantity: 40 };
    assert.equal(referenceFill([wrong, good, older])!.id, 'good');
    assert.equal(referenceFill([good, older])!.id, 'good');
  });
});

describe('REFILL_TOO_SOON', () => {
  test('more than the distance driven could have consumed plus the allowance', () => {
    const f = one(
      refillTooSoon.evaluate(context({ distanceSincePreviousKm: 20, tx: { quantity: 60 } })),
    ) as Finding;
    assert.equal(f.kind, 'anomaly');
    assert.equal(f.severity, 'MEDIUM');
    // 20 km at 30 L/100 km + 20 % of 80 L
    assert.equal(f.expected, 6 + 16);
  });
  test('a refill matching the distance passes; without fleet trips: not applicable', () => {
    assert.equal(
      kind(refillTooSoon.evaluate(context({ distanceSincePreviousKm: 150, tx: { quantity: 50 } }))),
      'pass',
    );
    assert.equal(refillTooSoon.evaluate(context({ vehicleHasTrips: false, tx: { quantity: 60 } })), null);
  });
});

describe('UNIT_PRICE_OUTLIER', () => {
  test('far from the median of product, area and week', () => {
    const f = one(unitPriceOutlier.evaluate(context({ tx: { grossUnitPrice: 2.3 } }))) as Finding;
    assert.equal(f.kind, 'anomaly');
    assert.equal(f.expected, 1.7);
    assert.equal(f.evidence.sample, 10);
    assert.equal(
      (one(unitPriceOutlier.evaluate(context({ tx: { grossUnitPrice: 3.0 } }))) as Finding).severity,
      'MEDIUM',
    );
  });
  test('close to the median passes; too small a sample or a refund: not applicable', () => {
    assert.equal(kind(unitPriceOutlier.evaluate(context({ tx: { grossUnitPrice: 1.9 } }))), 'pass');
    assert.equal(
      unitPriceOutlier.evaluate(context({ priceSample: { median: 1.7, n: 3, area: '20', week: 'w' } })),
      null,
    );
    assert.equal(
      unitPriceOutlier.evaluate(context({ tx: { transactionType: 'REFUND', grossUnitPrice: 9 } })),
      null,
    );
  });
});
