/**
 * decodePlate: a validated plate resolved through registered vehicles — the caller's visible fleet
 * vehicles (fleet_contract.vehicles_v1, read only) and vehicle_data.plate_registry — to decoded vehicles.
 * A registered VIN is decoded (vPIC / WMI); registry and fleet fields fill what the VIN does not say.
 */
import type { Knex } from 'knex';
import { fleetVehiclesByPlate } from '../../data/fleet';
import { fillMissing, referenceById, referenceFields } from '../../data/references';
import type { VehicleDataReader } from '../../reader';
import { decodeVinStructure, fuelTypeOf, type DecodeVinResult } from '../vin/decode';
import { expectedCheckDigit, isNorthAmerican, normalizeVin } from '../vin/validate';
import { checkPlate } from './formats';

interface RegistryRow {
  country: string;
  plate: string;
  plateDisplay: string;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  fuelType: string | null;
  color: string | null;
  referenceId: string | null;
  firstRegistration: Date | string | null;
}

async function registryRows(knex: Knex, country: string, plate: string): Promise<RegistryRow[]> {
  const q = knex('vehicle_data.plate_registry as p')
    .select(
      'p.country as country',
      'p.plate as plate',
      'p.plate_display as plateDisplay',
      'p.vin as vin',
      'p.make as make',
      'p.model as model',
      'p.model_year as year',
      'p.fuel_type as fuelType',
      'p.color as color',
      'p.reference_id as referenceId',
      'p.first_registration as firstRegistration',
    )
    .where('p.plate', plate)
    .orderBy(['p.country', 'p.plate']);
  if (country === 'US') q.whereLike('p.country', 'US%');
  else q.where('p.country', country);
  return q;
}

const validVin = (vin: string | null | undefined): string | null => {
  if (!vin) return null;
  const v = normalizeVin(vin);
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(v)) return null;
  if (isNorthAmerican(v) && expectedCheckDigit(v) !== v[8]) return null;
  return v;
};

function dateParts(value: Date | string | null) {
  if (!value) return {};
  const d = value instanceof Date ? value : new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return {};
  // `date` columns come back as local-midnight Dates from pg; read local parts.
  const local = value instanceof Date;
  return {
    yearOfFirstCirculation: local ? d.getFullYear() : d.getUTCFullYear(),
    monthOfFirstCirculation: (local ? d.getMonth() : d.getUTCMonth()) + 1,
    dayOfFirstCirculation: local ? d.getDate() : d.getUTCDate(),
  };
}

async function fromVin(
  reader: VehicleDataReader,
  vin: string | null,
  id: string,
  source: string,
): Promise<DecodeVinResult> {
  if (vin) {
    const decoded = await decodeVinStructure(vin, reader.vpic, null);
    return {
      ...decoded,
      id,
      verified: true,
      extraInfo: {
        ...(decoded.extraInfo as object),
        source: `${source}; VIN: ${(decoded.extraInfo as { source: string }).source}`,
      },
    };
  }
  return { id, vin: null, verified: false, extraInfo: null, options: [] };
}

export async function decodePlate(
  reader: VehicleDataReader,
  plateInput: string,
  countryInput: string,
): Promise<DecodeVinResult[]> {
  const { country, plate } = checkPlate(plateInput, countryInput);
  const [fleet, registry] = await Promise.all([
    fleetVehiclesByPlate(reader.knex, reader.viewer, plate),
    registryRows(reader.knex, country, plate),
  ]);
  const results: DecodeVinResult[] = [];
  const seen = new Map<string, number>();
  for (const v of fleet) {
    const vin = validVin(v.vin);
    let r = await fromVin(reader, vin, `fleet:${v.id}`, 'fleet vehicle');
    r = fillMissing(r, {
      make: v.make,
      model: v.model,
      engineFuelType: fuelTypeOf(v.fuelType),
      plate: v.plate,
    });
    r.plate = v.plate;
    if (vin) seen.set(vin, results.length);
    results.push(r);
  }
  for (const row of registry) {
    const vin = validVin(row.vin);
    const reference = row.referenceId ? await referenceById(reader.knex, row.referenceId) : null;
    const extra: Partial<DecodeVinResult> = {
      plate: row.plateDisplay,
      make: row.make,
      model: row.model,
      color: row.color,
      engineFuelType: fuelTypeOf(row.fuelType),
      ...dateParts(row.firstRegistration),
      ...(reference ? referenceFields(reference) : {}),
    };
    const known = vin ? seen.get(vin) : undefined;
    if (known !== undefined) {
      results[known] = fillMissing(results[known]!, extra);
      continue;
    }
    const r = fillMissing(
      await fromVin(reader, vin, `plate:${row.country}:${row.plate}`, 'plate registry'),
      extra,
    );
    r.plate = row.plateDisplay;
    r.color = row.color;
    if (!r.extraInfo) r.verified = false;
    results.push(r);
  }
  return results;
}
