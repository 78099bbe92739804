import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import { decodeDtcs } from '../domain/dtc/decode';
import type { VehicleDataReader } from '../reader';
import { validateVin } from '../domain/vin/validate';
import { wmiOf } from '../domain/vin/wmi';

type Ctx = SubgraphContext<VehicleDataReader>;

export interface DecodeDtcsArgs {
  vin: string;
  codes: (string | null)[];
  protocol: string;
  region: string;
  make?: string | null;
  language?: string | null;
  oem?: boolean | null;
}

export const dtcQueries = {
  async decodeDtcs(_: unknown, args: DecodeDtcsArgs, { reader }: Ctx) {
    let make = args.make?.trim() || null;
    if (!make && args.vin.trim() !== '') {
      const vin = validateVin(args.vin);
      make = wmiOf(vin)?.make ?? null;
      if (!make) {
        const decoded = await reader.vpic.decode(vin);
        make = decoded.components.vehicle?.make || decoded.components.wmi?.make || null;
      }
    }
    return decodeDtcs({
      codes: args.codes,
      protocol: args.protocol,
      region: args.region,
      make,
      language: args.language ?? 'EN',
      oem: args.oem === true,
    });
  },
};
