/**
 * alpr: the plate read from the picture by a reader thread (reader.ts -> read.ts), then the
 * registered vehicle from decodePlate when known.
 */
import { decodePlate } from '../plate/resolve';
import type { VehicleDataReader } from '../../reader';
import type { AlprInput } from './read';

export type { AlprInput } from './read';

export async function recognizePlate(reader: VehicleDataReader, input: AlprInput, signal: AbortSignal) {
  const found = await reader.plates.read(input, signal);
  if (!found) return { plate: null, vehicle: null };
  const { countryKey, country, region } = found;
  const vehicles = await decodePlate(reader, found.normalized, countryKey);
  const year = input.year ?? null;
  const modelYear = (v: Record<string, unknown>) =>
    (v.extraInfo as { modelYear?: number } | null)?.modelYear ?? null;
  const vehicle = vehicles.find((v) => year == null || modelYear(v) == null || modelYear(v) === year) ?? null;
  return {
    plate: {
      text: found.text,
      normalized: found.normalized,
      confidence: Math.round(found.confidence * 10) / 1000,
      boundingBox: found.box,
      country,
      region,
    },
    vehicle: vehicle
      ? {
          vin: vehicle.vin ?? null,
          make: vehicle.make ?? null,
          model: vehicle.model ?? null,
          year: modelYear(vehicle) ?? year,
          color: (vehicle.color as string | null) ?? null,
          engineFuelType: vehicle.engineFuelType ?? null,
          verified: vehicle.verified,
          details: vehicle,
        }
      : null,
  };
}
