import type { Knex } from 'knex';
import { badInput, type PageArgs } from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { VehicleDataLoaders } from '../services';
import { escapeLike, lower, rootPage, type ListSpec } from './list';
import { decodeOneVin } from './vin';

type Ctx = SubgraphContext<VehicleDataLoaders>;

export const COVERAGE_PAGE_RULES = {
  makes: { defaultSize: 50, maxSize: 200 },
  models: { defaultSize: 50, maxSize: 500 },
  vehicles: { defaultSize: 100, maxSize: 1000 },
  blacklists: { defaultSize: 50, maxSize: 200 },
} as const;
const MAX_VINS = 50;

const makesSpec: ListSpec = {
  select: ['mk.id as id', 'mk.name as name'],
  order: { columns: ['mk.name', 'mk.id'], fields: ['name', 'id'] },
};
const modelsSpec: ListSpec = {
  select: ['md.id as id', 'md.name as name', 'mk.name as make'],
  order: { columns: ['mk.name', 'md.name', 'md.id'], fields: ['make', 'name', 'id'] },
};
const blacklistsSpec: ListSpec = {
  select: ['b.id as id', 'b.make as make', 'b.model as model', 'b.year as year', 'b.reason as reason'],
  order: { columns: ['b.make', 'b.id'], fields: ['make', 'id'] },
};
const BLACKLISTED = `exists (select 1 from vehicle_data.coverage_blacklists b where lower(b.make) = lower(mk.name)
  and (b.model is null or lower(b.model) = lower(md.name)) and (b.year is null or b.year = cv.year))`;

function vehiclesSpec(knex: Knex): ListSpec {
  return {
    select: [
      'cv.id as id',
      'mk.name as make',
      'md.name as model',
      'cv.year as year',
      'cv.energy_type as energyType',
      'cv.powertrain as powertrain',
      'cv.regions as regions',
      'cv.parameters as parameters',
      knex.raw(`${BLACKLISTED} as blacklisted`),
    ],
    order: {
      columns: ['mk.name', 'md.name', 'cv.year', 'cv.energy_type', 'cv.id'],
      fields: ['make', 'model', 'year', 'energyType', 'id'],
    },
  };
}

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
  coverageMakes(_: unknown, args: PageArgs & { name?: string | null }, { loaders }: Ctx) {
    const base = loaders.knex('vehicle_data.coverage_makes as mk');
    if (args.name != null) base.whereILike('mk.name', `%${escapeLike(args.name.trim())}%`);
    return rootPage(
      loaders,
      'coverageMakes',
      makesSpec,
      COVERAGE_PAGE_RULES.makes,
      args,
      { name: args.name },
      base,
    );
  },

  coverageModels(_: unknown, args: PageArgs & { makes?: string[] | null }, { loaders }: Ctx) {
    const base = loaders
      .knex('vehicle_data.coverage_models as md')
      .join('vehicle_data.coverage_makes as mk', 'mk.id', 'md.make_id');
    if (args.makes) base.whereRaw('lower(mk.name) = any(?::text[])', [lower(args.makes)]);
    return rootPage(
      loaders,
      'coverageModels',
      modelsSpec,
      COVERAGE_PAGE_RULES.models,
      args,
      { makes: args.makes },
      base,
    );
  },

  async coverageVehicles(_: unknown, args: VehiclesArgs, { loaders }: Ctx) {
    const { knex } = loaders;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const base = knex('vehicle_data.coverage_vehicles as cv')
      .join('vehicle_data.coverage_models as md', 'md.id', 'cv.model_id')
      .join('vehicle_data.coverage_makes as mk', 'mk.id', 'md.make_id');
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
      const decoded = await Promise.all(args.vin.map((v) => decodeOneVin(loaders, v, null)));
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
    const page = await rootPage<{ parameters: string[] }>(
      loaders,
      'coverageVehicles',
      vehiclesSpec(knex),
      COVERAGE_PAGE_RULES.vehicles,
      args,
      filters,
      base,
    );
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
    { loaders }: Ctx,
  ) {
    const { knex } = loaders;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const base = knex('vehicle_data.coverage_blacklists as b');
    if (args.ids) base.whereIn('b.id', args.ids);
    if (args.makes) base.whereRaw('lower(b.make) = any(?::text[])', [lower(args.makes)]);
    if (args.models) base.whereRaw('lower(b.model) = any(?::text[])', [lower(args.models)]);
    if (args.years) base.where((q) => q.whereNull('b.year').orWhereIn('b.year', args.years!));
    return rootPage(
      loaders,
      'coverageBlacklists',
      blacklistsSpec,
      COVERAGE_PAGE_RULES.blacklists,
      args,
      filters,
      base,
    );
  },
};
