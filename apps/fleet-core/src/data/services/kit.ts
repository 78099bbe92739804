/**
 * What every services area shares: the resolver context, root and nested paging, the
 * organization and visibility filters of its loaders, and the small field resolvers that follow
 * a row's foreign key to a fleet entity.
 */
import DataLoader from 'dataloader';
import type { Viewer } from '@fleetgraph/auth';
import type { Knex } from 'knex';
import {
  keyLookup,
  normalizeKey,
  selectColumns,
  type KeyKind,
  type PageArgs,
  type TableSpec,
} from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../../reader';
import type { ServiceRelationName } from './relations';

export type Ctx = SubgraphContext<FleetReader>;
export type Row = Record<string, any>;

/** A ILIKE pattern that matches `value` literally. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `<alias>.organization_id = <the caller's organization>` */
export const ownOrganization = (knex: Knex, alias: string, viewer: Viewer) =>
  knex.raw(`${alias}.organization_id = (select organization_id from fleet.accounts where id = ?)`, [viewer]);

/** What an area's loaders are built from: the connection, the viewer and two shorthands. */
export interface LoaderEnv {
  knex: Knex;
  viewer: Viewer;
  /** `select <spec columns> from <table> as <alias>` */
  select: (spec: TableSpec) => Knex.QueryBuilder;
  /** `<alias>.organization_id` is the viewer's organization */
  ownOrg: (alias: string) => Knex.Raw;
}

export const loaderEnv = (knex: Knex, viewer: Viewer): LoaderEnv => ({
  knex,
  viewer,
  select: (spec) => knex(`${spec.table} as ${spec.alias}`).select(selectColumns(spec)),
  ownOrg: (alias) => ownOrganization(knex, alias, viewer),
});

/**
 * An area's lookup by key, compiled once per process (keyLookup): `rows` selects the candidate
 * rows through an env whose viewer is a placeholder (so bind it, never read it); the lookup adds
 * `<column> = any(<keys>)`. Per request: `lookup(env)` is the batched loader.
 */
export function serviceLookup(
  key: { column: string; field?: string; kind: KeyKind },
  rows: (env: LoaderEnv) => Knex.QueryBuilder,
) {
  const lookup = keyLookup<{ viewer: Viewer }>({ field: 'id', ...key }, ['viewer'], (knex, p) =>
    rows(loaderEnv(knex, p.viewer)),
  );
  return <M extends Record<string, unknown> = Row>(env: LoaderEnv) =>
    lookup.loader<M>(env.knex, { viewer: env.viewer });
}

/** Rows grouped by `field`, keys normalized like byKey's (uuid keys lowercased: see KeyKind). */
export function groupedBy<M extends Record<string, unknown>>(
  query: (keys: readonly string[]) => Promise<M[]>,
  field: string,
  kind: KeyKind,
) {
  const normalize = normalizeKey(kind);
  return new DataLoader<string, M[], string>(
    async (given) => {
      const keys = given.map(normalize);
      const rows = await query(keys);
      const map = new Map<string, M[]>();
      for (const row of rows) {
        const key = normalize(String(row[field]));
        map.set(key, [...(map.get(key) ?? []), row]);
      }
      return keys.map((key) => map.get(key) ?? []);
    },
    { cacheKeyFn: normalize },
  );
}

/** A nested paged field, batched through the relation's LATERAL loader. */
export const nested =
  (relation: ServiceRelationName) =>
  (parent: { id: string }, args: PageArgs & Record<string, unknown>, { reader }: Ctx) =>
    reader.services.relations.get(relation).load({ parentId: String(parent.id), args });

/** The account named by `row[field]`, if the viewer sees it. */
export const account =
  (field: string) =>
  (row: Row, _: unknown, { reader }: Ctx) =>
    row[field] ? reader.account.load(String(row[field])) : null;

/**
 * The id in `row[field]` when the viewer sees that account, else null: an id is data too (a
 * restricted dispatcher must not learn the ids of accounts outside its subtree).
 */
export const accountId =
  (field: string) =>
  async (row: Row, _: unknown, { reader }: Ctx) =>
    row[field] && (await reader.account.load(String(row[field]))) ? String(row[field]) : null;

/** The device named by `row[field]`, if the viewer sees it. */
export const device =
  (field: string) =>
  (row: Row, _: unknown, { reader }: Ctx) =>
    row[field] ? reader.device.load(String(row[field])) : null;

/** The vehicle named by `row[field]`, if the viewer sees it. */
export const vehicle =
  (field: string) =>
  (row: Row, _: unknown, { reader }: Ctx) =>
    row[field] ? reader.vehicle.load(row[field]) : null;
