/** Root queries driver, drivers and getMetadatum. */
import type { GraphQLResolveInfo } from 'graphql';
import type { Knex } from 'knex';
import { badInput, fingerprint, pageRequest, toPage, type PageArgs } from '@fleetgraph/paging';
import {
  anyAssetVisible,
  visibleRootList,
  type OrganizationWalk,
  type VisibilityForm,
} from '@fleetgraph/visibility';
import { listProjection, type SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../reader';
import { applySortKeyset, keyAlias, type SortKey } from '../data/sort-keyset';
import * as t from '../data/tables';

type Ctx = SubgraphContext<FleetReader>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type SortField = 'LABEL' | 'ID_KEY' | 'CREATED_AT' | 'UPDATED_AT';
const SORT_EXPRESSIONS: Record<SortField, Pick<SortKey, 'sql' | 'type'>> = {
  LABEL: { sql: 'dr.label', type: 'text' },
  ID_KEY: { sql: "coalesce(dr.id_key, '')", type: 'text' },
  CREATED_AT: { sql: 'dr.created_at', type: 'timestamptz' },
  UPDATED_AT: { sql: 'dr.updated_at', type: 'timestamptz' },
};
export const MAX_DRIVER_SORTS = 4;

export interface DriversArgs extends PageArgs {
  ids?: string[] | null;
  idKeys?: string[] | null;
  labels?: string[] | null;
  auxiliaryDeviceSerialNumbers?: string[] | null;
  auxiliaryDeviceMacAddressHashs?: string[] | null;
  auxiliaryDeviceIdKeys?: string[] | null;
  hasVehicle?: boolean | null;
  active?: boolean | null;
  sort?: Array<{ field: SortField; direction?: 'ASC' | 'DESC' | null }> | null;
}

function sortKeys(sort: DriversArgs['sort']): SortKey[] {
  const criteria = sort && sort.length > 0 ? sort : [{ field: 'LABEL' as const, direction: 'ASC' as const }];
  if (criteria.length > MAX_DRIVER_SORTS) {
    throw badInput(`sort accepts at most ${MAX_DRIVER_SORTS} criteria (got ${criteria.length}).`, {
      argument: 'sort',
    });
  }
  const seen = new Set<string>();
  const keys: SortKey[] = criteria.map((c) => {
    if (seen.has(c.field)) throw badInput(`sort lists ${c.field} twice.`, { argument: 'sort' });
    seen.add(c.field);
    return { ...SORT_EXPRESSIONS[c.field], direction: c.direction === 'DESC' ? 'desc' : 'asc' };
  });
  // The id breaks ties (in the direction of the last criterion, so a single-direction sort
  // stays one index range).
  keys.push({ sql: 'dr.id', type: 'uuid', direction: keys[keys.length - 1]!.direction });
  return keys;
}

/** The list's default order (LABEL ASC, then id), which the organization index walks. */
const DRIVER_WALK: OrganizationWalk = {
  organization: 'dr.organization_id',
  order: { columns: ['dr.label', 'dr.id'] },
  lowest: "''",
};

/** Whether `sort` is the list's default order (LABEL ascending, then id). */
const isDefaultSort = (sort: DriversArgs['sort']) =>
  sort == null ||
  sort.length === 0 ||
  (sort.length === 1 && sort[0]!.field === 'LABEL' && sort[0]!.direction !== 'DESC');

/**
 * The visible drivers the arguments select, as a page base (a function of the keyset position
 * when it applies the position itself) and a count base: by ids, each row is tested; other
 * filters or sorts read the visible set; neither lets the viewer's scope decide (a walk of the
 * organization in label order for a large fleet seen from the top).
 */
function driverList(reader: FleetReader, args: DriversArgs) {
  const { knex, viewer } = reader;
  const { pageSize: _size, pageId: _id, sort, ...filters } = args;
  const filtered = !isDefaultSort(sort) || Object.values(filters).some((v) => v != null);
  const bound = args.ids ? 'key' : filtered ? 'set' : 'scope';
  const visible = (form: VisibilityForm) => anyAssetVisible(knex, viewer, { driver: 'dr.id' }, form);
  const rows = () => driverFilters(knex, args, knex(`${t.drivers.table} as dr`));
  return visibleRootList(rows, bound, visible, DRIVER_WALK, () => reader.listScope);
}

/** The filter arguments as conditions on `base` (drivers as dr). */
function driverFilters(knex: Knex, args: DriversArgs, base: Knex.QueryBuilder): Knex.QueryBuilder {
  if (args.ids)
    base.whereIn(
      'dr.id',
      args.ids.filter((id) => UUID.test(id)),
    );
  if (args.idKeys) base.whereIn('dr.id_key', args.idKeys);
  if (args.labels) base.whereIn('dr.label', args.labels);
  const auxiliary = (column: string, values: string[] | null | undefined) => {
    if (values)
      base.whereIn(
        'dr.id',
        knex('fleet.driver_auxiliary_devices').select('driver_id').whereIn(column, values),
      );
  };
  auxiliary('serial_number', args.auxiliaryDeviceSerialNumbers);
  auxiliary('mac_address_hash', args.auxiliaryDeviceMacAddressHashs);
  auxiliary('id_key', args.auxiliaryDeviceIdKeys);
  if (args.hasVehicle != null) {
    if (args.hasVehicle) base.whereNotNull('dr.current_vehicle_id');
    else base.whereNull('dr.current_vehicle_id');
  }
  if (args.active != null) base.where('dr.active', args.active);
  return base;
}

export const DriverQueries = {
  driver: (_: unknown, args: { id?: string | null }, { reader, user }: Ctx) =>
    args.id != null ? reader.driver.load(args.id) : reader.driverByProfile.load(user.uid),

  async drivers(_: unknown, args: DriversArgs, { reader }: Ctx, info: GraphQLResolveInfo) {
    const { knex, codec } = reader;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const keys = sortKeys(args.sort);
    const request = pageRequest(codec, args, undefined, fingerprint('drivers', filters));
    const { base, countBase } = await driverList(reader, args);
    // A function base applies the keyset position itself (visibleInOrder); the sort then only orders.
    const positioned = typeof base === 'function';
    const baseAfter = typeof base === 'function' ? base : () => base.clone();
    const query = baseAfter(request.after).select(
      t.selectColumns(t.drivers, listProjection(t.drivers, info)),
    );
    try {
      applySortKeyset(knex, query, keys, positioned ? null : request.after);
    } catch {
      throw badInput('pageId does not match the sort of this query.', { argument: 'pageId' });
    }
    // Written into the text like every page's limit (applyKeyset): a bound limit is planned afresh on every call.
    query.limit(request.size + 1, { skipBinding: true });
    const rows = (await query) as Array<Record<string, unknown>>;
    return toPage(
      codec,
      request,
      rows,
      (row) => keys.map((_, i) => row[keyAlias(i)]),
      async () => {
        const counted = countBase?.() ?? baseAfter(null);
        const row = (await counted.count('* as n').first()) as { n: number } | undefined;
        return Number(row?.n ?? 0);
      },
    );
  },

  getMetadatum: (_: unknown, args: { id: string }, { reader }: Ctx) => reader.metadatum.load(args.id),
};
