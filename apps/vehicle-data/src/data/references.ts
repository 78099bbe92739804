/** vehicle_data.vehicle_references: the project's own vehicle reference table, keyed by KBA and K-Type. */
import type { Knex } from 'knex';
import type { DecodeVinResult } from '../domain/vin/decode';

const COLUMNS = {
  id: 'id',
  kba: 'kba',
  kType: 'ktype',
  make: 'make',
  model: 'model',
  advancedModel: 'advanced_model',
  bodyType: 'body_type',
  fuelType: 'fuel_type',
  engineCode: 'engine_code',
  engineDisplacement: 'engine_displacement',
  engineOutputPower: 'engine_output_power',
  engineCylinders: 'engine_cylinders',
  gearboxType: 'gearbox_type',
  doors: 'doors',
  seats: 'seats',
  yearFrom: 'year_from',
  yearTo: 'year_to',
};

export interface ReferenceRow {
  id: string;
  kba: string | null;
  kType: string | null;
  make: string;
  model: string;
  advancedModel: string | null;
  bodyType: string | null;
  fuelType: string;
  engineCode: string | null;
  engineDisplacement: number | null;
  engineOutputPower: number | null;
  engineCylinders: number | null;
  gearboxType: string | null;
  doors: number | null;
  seats: number | null;
  yearFrom: number | null;
  yearTo: number | null;
}

const select = () => Object.entries(COLUMNS).map(([f, c]) => `r.${c} as ${f}`);

/** KBA as HSN/TSN: "0603/BFY", "0603BFY" or "0603 BFY" -> "0603BFY". */
export const normalizeKba = (kba: string) => kba.replace(/[\s/-]/g, '').toUpperCase();

export async function findReference(
  knex: Knex,
  by: { kba?: string | null; kType?: string | null },
): Promise<ReferenceRow | null> {
  const q = knex('vehicle_data.vehicle_references as r').select(select());
  if (by.kba) q.where('r.kba', normalizeKba(by.kba));
  if (by.kType) q.where('r.ktype', by.kType.trim());
  return ((await q.first()) as ReferenceRow | undefined) ?? null;
}

export async function referenceById(knex: Knex, id: string): Promise<ReferenceRow | null> {
  return (
    ((await knex('vehicle_data.vehicle_references as r').select(select()).where('r.id', id).first()) as
      ReferenceRow | undefined) ?? null
  );
}

/** The reference as DecodeVinResult fields. */
export function referenceFields(r: ReferenceRow): Partial<DecodeVinResult> {
  return {
    kba: r.kba,
    kType: r.kType,
    make: r.make,
    model: r.model,
    advancedModel: r.advancedModel,
    bodyType: r.bodyType,
    engineFuelType: r.fuelType,
    engineCode: r.engineCode,
    engineDisplacement: r.engineDisplacement,
    engineOutputPower: r.engineOutputPower,
    engineOutputPowerPs: r.engineOutputPower != null ? Math.round(r.engineOutputPower * 1.35962) : null,
    engineCylinders: r.engineCylinders,
    gearboxType: r.gearboxType,
    doors: r.doors,
    seats: r.seats,
  };
}

/** Fills the fields `base` does not know from `extra` (never overwrites a known value). */
export function fillMissing(base: DecodeVinResult, extra: Partial<DecodeVinResult>): DecodeVinResult {
  const out: DecodeVinResult = { ...base };
  for (const [k, v] of Object.entries(extra)) if (out[k] == null && v != null) out[k] = v;
  return out;
}
