/** What the rules see (facts gathered by the engine) and what they answer (verdicts). */

export type Severity = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export interface TransactionFacts {
  id: string;
  organizationId: string;
  transactedAt: Date;
  quantity: number;
  quantityUnit: string;
  energyType: string;
  productCategory: string;
  transactionType: string;
  odometerKm: number | null;
  grossUnitPrice: number | null;
  currency: string | null;
  stationLatitude: number | null;
  stationLongitude: number | null;
  stationPostalCode: string | null;
  vehicleId: string | null;
}

export interface VehicleFacts {
  id: string;
  /** fleet_contract.vehicles_v1.fuel_type: GASOLINE, DIESEL, ELECTRIC, HYBRID, PLUGIN_HYBRID, LPG, CNG, HYDROGEN, OTHER */
  fuelType: string | null;
  vehicleType: string | null;
  fuelTankCapacityL: number | null;
  batteryCapacityKwh: number | null;
}

export interface PositionFact {
  recordedAt: Date;
  latitude: number;
  longitude: number;
  source: string;
}

export interface PreviousFill {
  id: string;
  transactedAt: Date;
  odometerKm: number | null;
  quantity: number;
}

export interface RuleContext {
  tx: TransactionFacts;
  vehicle: VehicleFacts | null;
  /** positions of the vehicle within POSITION_WINDOW_MIN of the transaction time */
  positions: PositionFact[];
  /** the previous energy transaction of the same vehicle and energy class (liquid / electric) */
  previous: PreviousFill | null;
  /** km driven (fleet trips) between the previous fill and this one; null when no trips are known */
  distanceSincePreviousKm: number | null;
  /** whether fleet knows any trip of the vehicle in the 90 days before the transaction */
  vehicleHasTrips: boolean;
  /** median gross unit price of the same product, area, ISO week and currency, and the sample size */
  priceSample: { median: number; n: number; area: string; week: string } | null;
}

export interface Finding {
  kind: 'anomaly';
  code: string;
  severity: Severity;
  description: string;
  expected: number | null;
  observed: number | null;
  unit: string | null;
  evidence: Record<string, unknown>;
}

export interface Inconclusive {
  kind: 'inconclusive';
  code: string;
  reason: string;
}

export interface Pass {
  kind: 'pass';
  code: string;
}

export type Verdict = Finding | Inconclusive | Pass;

export interface Rule {
  /** stable code stored on the anomaly */
  code: string;
  /** one line for the README and the anomaly description */
  title: string;
  /** rules that do not apply to a transaction answer null */
  evaluate(context: RuleContext): Verdict | Verdict[] | null;
}
