import { badInput } from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { deviceVin } from '../data/fleet';
import { fillMissing, findReference, referenceFields } from '../data/references';
import type { VehicleDataReader } from '../reader';
import { decodeVinStructure, type DecodeVinResult } from '../domain/vin/decode';
import { assertCheckDigit, isNorthAmerican, normalizeVin, validateVin } from '../domain/vin/validate';
import { VIN_REGIONS, type VinRegion } from '../domain/vin/wmi';

type Ctx = SubgraphContext<VehicleDataReader>;

export interface DecodeVinArgs {
  vin: string;
  deviceId?: string | null;
  region?: string | null;
  kba?: string | null;
  kType?: string | null;
}

function parseRegion(region: string | null | undefined): VinRegion | null {
  if (region == null || region.trim() === '') return null;
  const r = region.trim().toLowerCase().replace(/[_-]/g, ' ') as VinRegion;
  if (!VIN_REGIONS.includes(r))
    throw badInput(`region must be one of ${VIN_REGIONS.join(', ')} (got "${region}").`, {
      argument: 'region',
    });
  return r;
}

/** Validates and decodes one VIN (check digit mandatory in North America). */
export async function decodeOneVin(
  reader: VehicleDataReader,
  input: string,
  region: VinRegion | null,
  argument = 'vin',
): Promise<DecodeVinResult> {
  const vin = validateVin(input, argument);
  if (isNorthAmerican(vin) || region === 'north america') assertCheckDigit(vin, argument);
  return decodeVinStructure(vin, reader.vpic, region);
}

export const vinQueries = {
  async decodeVin(_: unknown, args: DecodeVinArgs, { reader }: Ctx): Promise<DecodeVinResult[]> {
    const region = parseRegion(args.region);
    let vin = normalizeVin(args.vin);
    if (vin === '' && args.deviceId) {
      vin = normalizeVin((await deviceVin(reader.knex, reader.viewer, args.deviceId)) ?? '');
      if (vin === '' && !args.kba && !args.kType) return [];
    }
    const reference =
      args.kba || args.kType
        ? await findReference(reader.knex, { kba: args.kba ?? null, kType: args.kType ?? null })
        : null;
    if (vin === '') {
      if (!args.kba && !args.kType)
        throw badInput('Give a vin, or a deviceId, kba or kType to decode.', { argument: 'vin' });
      if (!reference) return [];
      return [
        {
          ...referenceFields(reference),
          id: `ref:${reference.id}`,
          vin: null,
          verified: true,
          decodingRegion: region,
          extraInfo: null,
          options: [],
        } as DecodeVinResult,
      ];
    }
    const decoded = await decodeOneVin(reader, vin, region);
    return [reference ? fillMissing(decoded, referenceFields(reference)) : decoded];
  },
};
