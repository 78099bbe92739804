import { badInput, pageOf, type PageArgs, type TableSpec } from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { VehicleDataReader } from '../reader';
import { decodeOneVin } from './vin';

type Ctx = SubgraphContext<VehicleDataReader>;

const MAX_VINS = 50;

const makesSpec: TableSpec = {
  table: 'vehicle_data.coverage_makes',
  alias: 'mk',
  columns: { id: 'id', name: 'name' },
  order: { columns: ['mk.name', 'mk.id'], fields: ['name', 'id'] },
};
/** Rows also carry `make` (mk.name), selected by the base query's join. */
const modelsSpec: TableSpec = {
  table: 'vehicle_data.coverage_models',
  alias: 'md',
  columns: { id: 'id', name: 'name' },
  order: { columns: ['mk.name', 'md.name', 'md.id'], fields: ['make', 'name', 'id'] },
};
const blacklistsSpec: TableSpec = {
  table: 'vehicle_data.coverage_blacklists',
  alias: 'b',
  columns: { id: 'id', make: 'make', model: 'model', year: 'year', reason: 'reason' },
  order: { columns: ['b.make', 'b.id'], fields: ['make', 'id'] },
};
/** Rows also carry `make`, `model` and `blacklisted`, selected by the base query (joins, EXISTS). */
const vehiclesSpec: TableSpec = {
  table: 'vehicle_data.coverage_vehicles',
  alias: 'cv',
  columns: {
    id: 'id',
    year: 'year',
    energyType: 'energy_type',
    powertrain: 'powertrain',
    regions: 'regions',
    parameters: 'parameters',
  },
  order: {
    columns: ['mk.name', 'md.name', 'cv.year', 'cv.energy_type', 'cv.id'],
    fields: ['make', 'model', 'year', 'energyType', 'id'],
  },
};
const BLACKLISTED = `exists (select 1 from vehicle_data.coverage_blacklists b where lower(b.make) = lower(mk.name)
  and (b.model is null or lower(b.model) = lower(md.name)) and (b.year is null or b.year = cv.year))`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const lower = (values: string[]) => values.map((v) => v.trim().toLowerCase());

interface VehiclesArgs extends PageArgs {
  ids?: string[] | null;
  makes?: string[] | null;
  models?: string[] | null;
  years?: number[] | null;
  energyTypes?: string[] | null;
  regions?: string[] | null;
  powertrain?: string | null;
  vin?: string[] | null;
  parameters?: string[] | null;
  blacklisted?: boolean | null;
}

export const coverageQueries = {
  coverageMakes(_: unknown, args: PageArgs & { name?: string | null }, { reader }: Ctx) {
    const base = reader.knex('vehicle_data.coverage_makes as mk');
    if (args.name != null) base.whereILike('mk.name', `%${escapeLike(args.name.trim())}%`);
    return pageOf({
      codec: reader.codec,
      name: 'coverageMakes',
      spec: makesSpec,
      args,
      filters: { name: args.name },
      base,
    });
  },

  coverageModels(_: unknown, args: PageArgs & { makes?: string[] | null }, { reader }: Ctx) {
    const base = reader
      .knex('vehicle_data.coverage_models as md')
      .join('vehicle_data.coverage_makes as mk', 'mk.id', 'md.make_id')
      .select('mk.name as make');
    if (args.makes) base.whereRaw('lower(mk.name) = any(?::text[])', [lower(args.makes)]);
    return pageOf({
      codec: reader.codec,
      name: 'coverageModels',
      spec: modelsSpec,
      args,
      filters: { makes: args.makes },
      base,
    });
  },

  async coverageVehicles(_: unknown, args: VehiclesArgs, { reader }: Ctx) {
    const { knex } = reader;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const base = knex('vehicle_data.coverage_vehicles as cv')
      .join('vehicle_data.coverage_models as md', 'md.id', 'cv.model_id')
      .join('vehicle_data.coverage_makes as mk', 'mk.id', 'md.make_id')
      .select('mk.name as make', 'md.name as model', knex.raw(`${BLACKLISTED} as blacklisted`));
    if (args.ids) base.whereIn('cv.id', args.ids);
    if (args.makes) base.whereRaw('lower(mk.name) = any(?::text[])', [lower(args.makes)]);
    if (args.models) base.whereRaw('lower(md.name) = any(?::text[])', [lower(args.models)]);
    if (args.years) base.whereIn('cv.year', args.years);
    if (args.energyTypes) base.whereIn('cv.energy_type', args.energyTypes);
    if (args.regions) base.whereRaw('cv.regions && ?::text[]', [args.regions]);
    if (args.powertrain) base.where('cv.powertrain', args.powertrain);
    if (args.parameters)
      base.whereRaw('cv.parameters @> ?::text[]', [args.parameters.map((p) => p.trim().toLowerCase())]);
    if (args.blacklisted != null) base.whereRaw(args.blacklisted ? BLACKLISTED : `not ${BLACKLISTED}`);
    if (args.vin) {
      if (args.vin.length > MAX_VINS)
        throw badInput(`vin may hold at most ${MAX_VINS} VINs (got ${args.vin.length}).`, {
          argument: 'vin',
        });
      const decoded = await Promise.all(args.vin.map((v) => decodeOneVin(reader, v, null)));
      base.where((any) => {
        any.whereRaw('false');
        for (const d of decoded) {
          const year = (d.extraInfo as { modelYear?: number | null } | null)?.modelYear ?? null;
          if (!d.make) continue;
          any.orWhere((one) => {
            one.whereRaw('lower(mk.name) = lower(?)', [d.make!]);
            if (d.model) one.whereRaw('lower(md.name) = lower(?)', [d.model]);
            if (year) one.where('cv.year', year);
          });
        }
      });
    }
    const page = await pageOf<{ parameters: string[] }>({
      codec: reader.codec,
      name: 'coverageVehicles',
      spec: vehiclesSpec,
      args,
      filters,
      base,
    });
    for (const row of page.list) row.parameters = [...row.parameters].sort();
    return page;
  },

  coverageBlacklists(
    _: unknown,
    args: PageArgs & {
      ids?: string[] | null;
      makes?: string[] | null;
      models?: string[] | null;
      years?: number[] | null;
    },
    { reader }: Ctx,
  ) {
    const { knex } = reader;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const base = knex('vehicle_data.coverage_blacklists as b');
    if (args.ids) base.whereIn('b.id', args.ids);
    if (args.makes) base.whereRaw('lower(b.make) = any(?::text[])', [lower(args.makes)]);
    if (args.models) base.whereRaw('lower(b.model) = any(?::text[])', [lower(args.models)]);
    if (args.years) base.where((q) => q.whereNull('b.year').orWhereIn('b.year', args.years!));
    return pageOf({
      codec: reader.codec,
      name: 'coverageBlacklists',
      spec: blacklistsSpec,
      args,
      filters,
      base,
    });
  },
};
