/**
 * The anomaly rules. Each is a pure function of the facts the engine gathered (RuleContext), with
 * a code, a severity and the evidence it found. Thresholds are the exported constants below (and
 * the README's table). A rule answers:
 *   - a Finding (anomaly), a Pass (checked, nothing wrong), an Inconclusive verdict (the data to
 *     decide is missing, e.g. no position near the transaction time: re-evaluated later), or
 *   - null when it does not apply (no vehicle, not an energy purchase, refund...).
 *
 * Rules:
 *   QUANTITY_ABOVE_CAPACITY  more fuel or energy than the tank / battery holds (+ tolerance)
 *   VEHICLE_NOT_AT_STATION   the vehicle's position nearest the transaction time is far from the station
 *   WRONG_ENERGY             diesel in a gasoline car, fuel for an electric vehicle, charging a non-plug-in
 *   ODOMETER_BACKWARDS       odometer lower than at the previous fill
 *   IMPOSSIBLE_DISTANCE      odometer progress since the previous fill above what the vehicle can drive
 *   REFILL_TOO_SOON          quantity far above what the distance driven since the previous fill consumed
 *   UNIT_PRICE_OUTLIER       unit price far from the median of the same product, area and week
 */
import { distanceKm } from './geo';
import type { Finding, Rule, RuleContext, Severity, Verdict } from './types';

/** Litres per unit, for liquid quantities given in gallons. */
const LITRES: Record<string, number> = { L: 1, GAL_US: 3.785411784, GAL_UK: 4.54609 };

export const THRESHOLDS = {
  /** QUANTITY_ABOVE_CAPACITY: tolerance over the tank capacity (filler neck, thermal expansion) */
  tankTolerance: 0.05,
  tankToleranceMinL: 2,
  /** over the usable battery capacity (charging losses are billed) */
  batteryTolerance: 0.15,
  /** CRITICAL instead of HIGH when the quantity is this many times the capacity */
  capacityCriticalFactor: 1.5,
  /** capacities assumed when fleet does not know the vehicle's (by vehicle_type; default row) */
  defaultTankL: {
    CAR: 70,
    VAN: 100,
    TRUCK: 600,
    HEAVY_TRUCK: 600,
    BUS: 400,
    MOTORCYCLE: 25,
    DEFAULT: 120,
  } as Record<string, number>,
  defaultBatteryKwh: {
    CAR: 110,
    VAN: 120,
    TRUCK: 600,
    HEAVY_TRUCK: 600,
    BUS: 500,
    MOTORCYCLE: 20,
    DEFAULT: 150,
  } as Record<string, number>,
  /** VEHICLE_NOT_AT_STATION: positions considered, minutes either side of the transaction */
  positionWindowMin: 60,
  /** allowed distance from the station: base + per minute between the position and the transaction */
  stationBaseKm: 1.5,
  stationKmPerMinute: 1.5,
  /** IMPOSSIBLE_DISTANCE: average speed above this between two fills */
  maxAverageSpeedKmh: 130,
  /** odometer tolerance (rounding at the pump) */
  odometerToleranceKm: 1,
  /** REFILL_TOO_SOON: highest plausible consumption per 100 km, and the allowance over it */
  maxLitresPer100Km: { TRUCK: 50, HEAVY_TRUCK: 50, BUS: 50, DEFAULT: 30 } as Record<string, number>,
  maxKwhPer100Km: { TRUCK: 150, HEAVY_TRUCK: 150, BUS: 150, DEFAULT: 40 } as Record<string, number>,
  /** allowance: the larger of this share of the capacity and the minimum below */
  refillAllowanceShare: 0.2,
  refillAllowanceMinL: 8,
  refillAllowanceMinKwh: 10,
  /** UNIT_PRICE_OUTLIER: relative distance from the median, and the minimum sample */
  priceOutlierRatio: 0.25,
  priceCriticalRatio: 0.6,
  priceMinSample: 5,
};

const LIQUID = new Set(['DIESEL', 'GASOLINE', 'LPG', 'CNG', 'HYDROGEN']);
const ENERGY_TYPES = new Set([...LIQUID, 'ELECTRIC']);

/** Energy types each fleet fuel_type accepts. Unknown / OTHER: no verdict. */
export const ACCEPTED_ENERGY: Record<string, string[]> = {
  GASOLINE: ['GASOLINE'],
  DIESEL: ['DIESEL'],
  ELECTRIC: ['ELECTRIC'],
  HYBRID: ['GASOLINE', 'DIESEL'],
  PLUGIN_HYBRID: ['GASOLINE', 'DIESEL', 'ELECTRIC'],
  LPG: ['LPG', 'GASOLINE'],
  CNG: ['CNG', 'GASOLINE'],
  HYDROGEN: ['HYDROGEN'],
};

const energyPurchase = (c: RuleContext) =>
  (c.tx.transactionType === 'REFILL' || c.tx.transactionType === 'CHARGE') &&
  ENERGY_TYPES.has(c.tx.energyType);

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function finding(
  code: string,
  severity: Severity,
  description: string,
  expected: number | null,
  observed: number | null,
  unit: string | null,
  evidence: Record<string, unknown>,
): Finding {
  return { kind: 'anomaly', code, severity, description, expected, observed, unit, evidence };
}

const pass = (code: string): Verdict => ({ kind: 'pass', code });

/** Quantity in litres (liquid) or kWh (electric); null when the unit does not fit the energy. */
function normalizedQuantity(c: RuleContext): { value: number; unit: 'L' | 'KWH' } | null {
  const { tx } = c;
  if (tx.energyType === 'ELECTRIC')
    return tx.quantityUnit === 'KWH' ? { value: tx.quantity, unit: 'KWH' } : null;
  const factor = LITRES[tx.quantityUnit];
  return factor ? { value: tx.quantity * factor, unit: 'L' } : null;
}

function capacityOf(c: RuleContext, unit: 'L' | 'KWH'): { value: number; source: string } {
  const v = c.vehicle!;
  const type = v.vehicleType ?? 'DEFAULT';
  if (unit === 'L') {
    if (v.fuelTankCapacityL) return { value: v.fuelTankCapacityL, source: 'VEHICLE' };
    return {
      value: THRESHOLDS.defaultTankL[type] ?? THRESHOLDS.defaultTankL.DEFAULT!,
      source: `DEFAULT_${type}`,
    };
  }
  if (v.batteryCapacityKwh) return { value: v.batteryCapacityKwh, source: 'VEHICLE' };
  return {
    value: THRESHOLDS.defaultBatteryKwh[type] ?? THRESHOLDS.defaultBatteryKwh.DEFAULT!,
    source: `DEFAULT_${type}`,
  };
}

export const quantityAboveCapacity: Rule = {
  code: 'QUANTITY_ABOVE_CAPACITY',
  title: 'More fuel or energy than the tank or battery holds',
  evaluate(c) {
    if (!c.vehicle || !energyPurchase(c) || c.tx.energyType === 'HYDROGEN' || c.tx.energyType === 'CNG')
      return null;
    const q = normalizedQuantity(c);
    if (!q) return null;
    const capacity = capacityOf(c, q.unit);
    const limit =
      q.unit === 'L'
        ? capacity.value * (1 + THRESHOLDS.tankTolerance) + THRESHOLDS.tankToleranceMinL
        : capacity.value * (1 + THRESHOLDS.batteryTolerance);
    if (q.value <= limit) return pass(this.code);
    const severity = q.value > capacity.value * THRESHOLDS.capacityCriticalFactor ? 'CRITICAL' : 'HIGH';
    return finding(
      this.code,
      severity,
      `${round(q.value)} ${q.unit} delivered but the ${q.unit === 'L' ? 'tank' : 'battery'} holds ${capacity.value} ${q.unit} (limit with tolerance ${round(limit)}).`,
      capacity.value,
      round(q.value, 3),
      q.unit,
      { capacity: capacity.value, capacitySource: capacity.source, limit: round(limit, 3) },
    );
  },
};

export const vehicleNotAtStation: Rule = {
  code: 'VEHICLE_NOT_AT_STATION',
  title: 'The vehicle was not at the station at the transaction time',
  evaluate(c) {
    const { tx } = c;
    if (!c.vehicle || !energyPurchase(c) || tx.stationLatitude == null || tx.stationLongitude == null)
      return null;
    if (c.positions.length === 0) {
      return {
        kind: 'inconclusive',
        code: this.code,
        reason: `no position of the vehicle within ${THRESHOLDS.positionWindowMin} min of the transaction`,
      };
    }
    const at = tx.transactedAt.getTime();
    const nearest = [...c.positions].sort(
      (a, b) => Math.abs(a.recordedAt.getTime() - at) - Math.abs(b.recordedAt.getTime() - at),
    )[0]!;
    const gapMin = Math.abs(nearest.recordedAt.getTime() - at) / 60_000;
    const allowed = THRESHOLDS.stationBaseKm + THRESHOLDS.stationKmPerMinute * gapMin;
    const distance = distanceKm(tx.stationLatitude, tx.stationLongitude, nearest.latitude, nearest.longitude);
    if (distance <= allowed) return pass(this.code);
    return finding(
      this.code,
      distance > 50 ? 'CRITICAL' : 'HIGH',
      `The vehicle was ${round(distance, 1)} km from the station ${round(gapMin, 0)} min from the transaction time (allowed ${round(allowed, 1)} km).`,
      round(allowed, 3),
      round(distance, 3),
      'KM',
      {
        position: {
          recordedAt: nearest.recordedAt.toISOString(),
          latitude: nearest.latitude,
          longitude: nearest.longitude,
          source: nearest.source,
        },
        gapMinutes: round(gapMin, 1),
        station: { latitude: tx.stationLatitude, longitude: tx.stationLongitude },
      },
    );
  },
};

export const wrongEnergy: Rule = {
  code: 'WRONG_ENERGY',
  title: 'Wrong fuel or energy for the vehicle',
  evaluate(c) {
    const fuelType = c.vehicle?.fuelType;
    if (!fuelType || !energyPurchase(c)) return null;
    const accepted = ACCEPTED_ENERGY[fuelType];
    if (!accepted) return null;
    if (accepted.includes(c.tx.energyType)) return pass(this.code);
    const electricVehicle = fuelType === 'ELECTRIC';
    const charging = c.tx.energyType === 'ELECTRIC';
    const severity: Severity = electricVehicle || !charging ? 'CRITICAL' : 'HIGH';
    const what = electricVehicle
      ? `${c.tx.energyType} bought for an electric vehicle`
      : charging
        ? `charging billed for a vehicle that cannot be plugged in (${fuelType})`
        : `${c.tx.energyType} bought for a ${fuelType} vehicle`;
    return finding(this.code, severity, `Wrong energy: ${what}.`, null, null, null, {
      vehicleFuelType: fuelType,
      accepted,
      delivered: c.tx.energyType,
      productCategory: c.tx.productCategory,
    });
  },
};

export const odometer: Rule = {
  code: 'ODOMETER_BACKWARDS',
  title: 'Odometer lower than at the previous fill, or impossible distance since it',
  evaluate(c) {
    const { tx, previous } = c;
    if (!c.vehicle || !energyPurchase(c) || tx.odometerKm == null || previous?.odometerKm == null)
      return null;
    const delta = tx.odometerKm - previous.odometerKm;
    const evidence = {
      previousTransactionId: previous.id,
      previousTransactedAt: previous.transactedAt.toISOString(),
      previousOdometerKm: previous.odometerKm,
      odometerKm: tx.odometerKm,
    };
    if (delta < -THRESHOLDS.odometerToleranceKm) {
      return finding(
        'ODOMETER_BACKWARDS',
        'HIGH',
        `Odometer ${tx.odometerKm} km is ${-delta} km lower than at the previous fill (${previous.odometerKm} km).`,
        previous.odometerKm,
        tx.odometerKm,
        'KM',
        evidence,
      );
    }
    const hours = Math.max((tx.transactedAt.getTime() - previous.transactedAt.getTime()) / 3_600_000, 1 / 60);
    const speed = delta / hours;
    const verdicts: Verdict[] = [pass('ODOMETER_BACKWARDS')];
    if (speed > THRESHOLDS.maxAverageSpeedKmh && delta > 50) {
      verdicts.push(
        finding(
          'IMPOSSIBLE_DISTANCE',
          'HIGH',
          `${delta} km since the previous fill ${round(hours, 1)} h earlier: ${round(speed, 0)} km/h on average (max ${THRESHOLDS.maxAverageSpeedKmh}).`,
          round(THRESHOLDS.maxAverageSpeedKmh * hours, 1),
          delta,
          'KM',
          { ...evidence, hours: round(hours, 2), averageSpeedKmh: round(speed, 1) },
        ),
      );
    } else verdicts.push(pass('IMPOSSIBLE_DISTANCE'));
    return verdicts;
  },
};

export const refillTooSoon: Rule = {
  code: 'REFILL_TOO_SOON',
  title: 'Refill far above what the distance driven since the previous one consumed',
  evaluate(c) {
    const { previous } = c;
    if (!c.vehicle || !energyPurchase(c) || !previous || !c.vehicleHasTrips) return null;
    const q = normalizedQuantity(c);
    if (!q) return null;
    const km = c.distanceSincePreviousKm ?? 0;
    const type = c.vehicle.vehicleType ?? 'DEFAULT';
    const per100 =
      q.unit === 'L'
        ? (THRESHOLDS.maxLitresPer100Km[type] ?? THRESHOLDS.maxLitresPer100Km.DEFAULT!)
        : (THRESHOLDS.maxKwhPer100Km[type] ?? THRESHOLDS.maxKwhPer100Km.DEFAULT!);
    const capacity = capacityOf(c, q.unit).value;
    const allowance = Math.max(
      capacity * THRESHOLDS.refillAllowanceShare,
      q.unit === 'L' ? THRESHOLDS.refillAllowanceMinL : THRESHOLDS.refillAllowanceMinKwh,
    );
    const expected = (km * per100) / 100 + allowance;
    if (q.value <= expected) return pass(this.code);
    return finding(
      this.code,
      'MEDIUM',
      `${round(q.value)} ${q.unit} refilled after ${round(km, 1)} km since the previous fill; at most ${round(expected)} ${q.unit} could have been used.`,
      round(expected, 3),
      round(q.value, 3),
      q.unit,
      {
        previousTransactionId: previous.id,
        previousTransactedAt: previous.transactedAt.toISOString(),
        distanceKm: round(km, 3),
        maxConsumptionPer100Km: per100,
        allowance: round(allowance, 3),
      },
    );
  },
};

export const unitPriceOutlier: Rule = {
  code: 'UNIT_PRICE_OUTLIER',
  title: 'Unit price far from the median of the same product, area and week',
  evaluate(c) {
    const { tx, priceSample } = c;
    if (tx.transactionType === 'REFUND' || tx.transactionType === 'CORRECTION' || tx.grossUnitPrice == null)
      return null;
    if (!priceSample || priceSample.n < THRESHOLDS.priceMinSample || priceSample.median <= 0) return null;
    const ratio = Math.abs(tx.grossUnitPrice - priceSample.median) / priceSample.median;
    if (ratio <= THRESHOLDS.priceOutlierRatio) return pass(this.code);
    return finding(
      this.code,
      ratio > THRESHOLDS.priceCriticalRatio ? 'MEDIUM' : 'LOW',
      `Unit price ${tx.grossUnitPrice} ${tx.currency ?? ''} is ${round(ratio * 100, 0)} % from the median ${round(priceSample.median, 3)} of ${tx.productCategory} in area ${priceSample.area}, week ${priceSample.week} (${priceSample.n} transactions).`,
      round(priceSample.median, 4),
      tx.grossUnitPrice,
      `${tx.currency ?? 'CURRENCY'}_PER_${tx.quantityUnit}`,
      {
        median: priceSample.median,
        sample: priceSample.n,
        area: priceSample.area,
        week: priceSample.week,
        ratio: round(ratio, 4),
      },
    );
  },
};

export const RULES: Rule[] = [
  quantityAboveCapacity,
  vehicleNotAtStation,
  wrongEnergy,
  odometer,
  refillTooSoon,
  unitPriceOutlier,
];

/** Every code a rule can produce. */
export const RULE_CODES = [
  'QUANTITY_ABOVE_CAPACITY',
  'VEHICLE_NOT_AT_STATION',
  'WRONG_ENERGY',
  'ODOMETER_BACKWARDS',
  'IMPOSSIBLE_DISTANCE',
  'REFILL_TOO_SOON',
  'UNIT_PRICE_OUTLIER',
] as const;

/** Runs every rule on one transaction's facts. */
export function evaluateAll(context: RuleContext, rules: Rule[] = RULES): Verdict[] {
  const out: Verdict[] = [];
  for (const rule of rules) {
    const verdict = rule.evaluate(context);
    if (verdict == null) continue;
    if (Array.isArray(verdict)) out.push(...verdict);
    else out.push(verdict);
  }
  return out;
}

/** The postal "area" prices are compared within: the first two characters of the postal code. */
export const priceArea = (postalCode: string | null) => (postalCode ? postalCode.trim().slice(0, 2) : null);
