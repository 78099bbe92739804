import type { GraphQLResolveInfo } from 'graphql';
import type { Knex } from 'knex';
import {
  anyAssetVisible,
  visibleAccounts,
  visibleGroups,
  visibleRootList,
  type OrganizationWalk,
  type VisibilityForm,
} from '@fleetgraph/visibility';
import { pageOf, type PageArgs } from '@fleetgraph/paging';
import { listProjection, objectProjection, type SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../reader';
import * as t from '../data/tables';
import { nonEmpty, rootPage } from './list';
import { DriverQueries } from './drivers';

type Ctx = SubgraphContext<FleetReader>;
type DevicesArgs = PageArgs & {
  ids?: (string | null)[];
  onboarded?: boolean;
  statuses?: string[];
  deviceTypes?: (string | null)[];
  hasWifi?: boolean;
  hasBluetooth?: boolean;
  productNames?: string[];
  productNetworks?: string[];
  productMarkets?: string[];
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The root devices list walks its organization's devices in id order (index devices (organization_id, id)). */
const DEVICE_WALK: OrganizationWalk = {
  organization: 'd.organization_id',
  order: t.devices.order,
  lowest: "''",
};

export const Query = {
  ...DriverQueries,
  account(_: unknown, args: { id?: string | null }, { reader, user }: Ctx, info: GraphQLResolveInfo) {
    const id = args.id ?? user.uid;
    // One's own account is always visible (spec section 1): no visibility test to plan and run.
    const loader = id === user.uid ? reader.self : reader.account;
    return loader.fields(objectProjection(t.accounts, info)).load(id);
  },

  accounts(
    _: unknown,
    args: PageArgs & {
      ids?: string[];
      email?: string;
      fullName?: string;
      shortName?: string;
      phone?: string;
    },
    { reader }: Ctx,
  ) {
    const { knex, viewer } = reader;
    const filters = {
      ids: args.ids,
      email: args.email,
      fullName: args.fullName,
      shortName: args.shortName,
      phone: args.phone,
    };
    const base = knex(`${t.accounts.table} as a`).whereIn('a.id', visibleAccounts(knex, viewer));
    if (args.ids)
      base.whereIn(
        'a.id',
        args.ids.filter((id) => UUID.test(id)),
      );
    if (args.email != null) base.whereRaw('lower(a.email) = lower(?)', [args.email]);
    if (args.fullName != null) base.whereILike('a.full_name', `%${escapeLike(args.fullName)}%`);
    if (args.shortName != null) base.whereILike('a.short_name', `%${escapeLike(args.shortName)}%`);
    if (args.phone != null) base.where('a.phone', args.phone);
    return rootPage(reader, 'accounts', t.accounts, args, filters, base);
  },

  group: (_: unknown, args: { id: string }, { reader }: Ctx) => reader.group.load(args.id),

  groups(
    _: unknown,
    args: PageArgs & { ids?: string[]; labels?: string[]; hierarchyLevels?: string[] },
    { reader }: Ctx,
    info: GraphQLResolveInfo,
  ) {
    const { knex, viewer } = reader;
    const filters = { ids: args.ids, labels: args.labels, hierarchyLevels: args.hierarchyLevels };
    const base = knex(`${t.groups.table} as g`).whereIn('g.id', visibleGroups(knex, viewer));
    if (args.ids)
      base.whereIn(
        'g.id',
        args.ids.filter((id) => UUID.test(id)),
      );
    if (args.labels) base.whereIn('g.label', args.labels);
    if (args.hierarchyLevels) base.whereIn('g.hierarchy_level', args.hierarchyLevels);
    return rootPage(reader, 'groups', t.groups, args, filters, base, info);
  },

  device: (_: unknown, args: { id: string }, { reader }: Ctx) => reader.device.load(args.id),

  async devices(_: unknown, args: DevicesArgs, { reader }: Ctx, info: GraphQLResolveInfo) {
    const { knex, viewer } = reader;
    const { pageSize: _size, pageId: _id, ...filters } = args;
    const visible = (form: VisibilityForm) => anyAssetVisible(knex, viewer, { device: 'd.id' }, form);
    const rows = () => deviceFilters(knex, args, knex(`${t.devices.table} as d`));
    // The walk tests every filter on each row it reads, so the scope decides.
    const read = await visibleRootList(rows, 'scope', visible, DEVICE_WALK, () => reader.listScope);
    return pageOf({
      codec: reader.codec,
      name: 'devices',
      spec: t.devices,
      args,
      filters,
      ...read,
      fields: listProjection(t.devices, info),
    });
  },
};

/** The root `devices` list's filter arguments, as conditions on `query` (devices as d). */
function deviceFilters(knex: Knex, args: DevicesArgs, query: Knex.QueryBuilder): Knex.QueryBuilder {
  const ids = nonEmpty(args.ids);
  if (ids) query.whereIn('d.id', ids);
  if (args.onboarded != null) query.where('d.onboarded', args.onboarded);
  if (args.statuses) query.whereIn('d.status', args.statuses);
  const deviceTypes = nonEmpty(args.deviceTypes);
  if (deviceTypes) query.whereIn('d.device_type', deviceTypes);
  const productFilter =
    args.hasWifi != null ||
    args.hasBluetooth != null ||
    args.productNames ||
    args.productNetworks ||
    args.productMarkets;
  if (productFilter) {
    const products = knex('fleet.products as pr').select('pr.id');
    if (args.hasWifi != null) products.where('pr.has_wifi', args.hasWifi);
    if (args.hasBluetooth != null) products.where('pr.has_bluetooth', args.hasBluetooth);
    if (args.productNames) products.whereIn('pr.name', args.productNames);
    if (args.productNetworks) products.whereIn('pr.network', args.productNetworks);
    if (args.productMarkets) products.whereIn('pr.market', args.productMarkets);
    query.whereIn('d.product_id', products);
  }
  return query;
}
