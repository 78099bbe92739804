/**
 * Batched lookups of one row per key (DataLoader), with keys compared the way PostgreSQL compares
 * them: `uuid` keys case-insensitively (rows come back lowercase, so keys are lowercased before
 * loading and lookup: an uppercase id finds its row, as it does in a list filter); `text` keys
 * (device IMEIs, catalog codes) as given. Ids that are not uuids cannot exist in a uuid column:
 * `uuidsOnly` drops them before SQL would refuse the cast.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import { arrayParameter, sqlTemplate, type SqlTemplate } from '@fleetgraph/db';

export type KeyKind = 'uuid' | 'text';
export const normalizeKey = (kind: KeyKind) =>
  kind === 'uuid' ? (key: string) => key.toLowerCase() : (key: string) => key;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** The keys that can be uuids (others cannot match a uuid column). */
export const uuidsOnly = (keys: readonly string[]): string[] => keys.filter(isUuid);

/** A batched lookup of one row per key, by the row's `field`, keys normalized per `kind`. */
export function byKey<M extends Record<string, unknown>>(
  query: (keys: readonly string[]) => Promise<M[]>,
  field: keyof M & string,
  kind: KeyKind,
): DataLoader<string, M | null> {
  const normalize = normalizeKey(kind);
  return new DataLoader(
    async (given) => {
      const keys = given.map(normalize);
      const rows = await query(keys);
      const map = new Map(rows.map((row) => [normalize(String(row[field])), row]));
      return keys.map((key) => map.get(key) ?? null);
    },
    { cacheKeyFn: normalize },
  );
}

/**
 * `<column> = any(<keys>)`, for `whereRaw(anyOf('a.id', 'uuid'), [keys])`: one statement text
 * whatever the number of keys (a `whereIn` list makes a new text per count, so a new prepared
 * statement and plan each time), and one plan: the keys are an arrayParameter, so a batch of two
 * keys does not make PostgreSQL plan the statement afresh on every call.
 */
export const anyOf = (column: string, kind: KeyKind): string =>
  `${column
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.')} = any(${arrayParameter(kind)})`;

/**
 * A request's batched lookup; `fields(projection)` is the sibling loader that selects only those
 * model fields (projectedFields), made on first use and kept for the request: rows loaded for one
 * projection never answer another.
 */
export interface LookupLoader<M> extends DataLoader<string, M | null> {
  fields(projection: readonly string[] | undefined): DataLoader<string, M | null>;
}

export interface KeyLookup<V extends Record<string, unknown>> {
  /** This request's batched loader: `values` are the shape's other parameters (the viewer...). */
  loader<M extends Record<string, unknown>>(knex: Knex, values: V): LookupLoader<M>;
  /** The same as a maker of request arguments holding `knex` and the values (for lazyFields). */
  maker<M extends Record<string, unknown>>(): (args: { knex: Knex } & V) => LookupLoader<M>;
}

/**
 * The rows a lookup reads, with every column of the table, or only `projection` when a request
 * asks for one (select `selectColumns(spec, projection)`).
 */
export type LookupRows<V> = (knex: Knex, params: V, projection?: readonly string[]) => Knex.QueryBuilder;

/**
 * A lookup of rows by `column` (the rows' `field`), compiled once per process: `rows` selects
 * the candidate rows (columns, joins, visibility) with a placeholder for each of `names`, and the
 * lookup adds `<column> = any(<keys>)`. Per request, `loader` batches the keys like `byKey`; ids
 * that cannot be uuids never reach a uuid column, and a batch without any runs no statement.
 * One statement text whatever the batch size, so one prepared statement, and no query building
 * per request (sql-template).
 */
export function keyLookup<V extends Record<string, unknown> = Record<never, never>>(
  key: { column: string; field: string; kind: KeyKind },
  names: readonly (keyof V & string)[],
  rows: LookupRows<V>,
): KeyLookup<V> {
  type Bound = V & { keys: string[] };
  const compile = (projection?: readonly string[]) =>
    sqlTemplate<Bound>(['keys', ...names], (knex, params) =>
      rows(knex, params, projection).whereRaw(anyOf(key.column, key.kind), [params.keys]),
    );
  const all = compile();
  const projected = new Map<string, SqlTemplate<Bound>>();
  const templateFor = (projection: readonly string[] | undefined) => {
    if (!projection) return all;
    // The key field is always read: rows are matched to keys by it.
    const fields = projection.includes(key.field) ? projection : [...projection, key.field].sort();
    const name = fields.join(',');
    let template = projected.get(name);
    // Finite: projections come from projectedFields, at most MAX_PROJECTIONS per table.
    if (!template) projected.set(name, (template = compile(fields)));
    return template;
  };
  const candidates = key.kind === 'uuid' ? uuidsOnly : (keys: readonly string[]) => [...keys];
  const loaderOf = <M extends Record<string, unknown>>(knex: Knex, values: V, template: SqlTemplate<Bound>) =>
    byKey<M>(
      (keys) => {
        const ids = candidates(keys);
        return ids.length === 0
          ? Promise.resolve([])
          : template.rows<M>(knex, { ...values, keys: ids } as Bound);
      },
      key.field as keyof M & string,
      key.kind,
    );
  return {
    maker<M extends Record<string, unknown>>() {
      return (args: { knex: Knex } & V) => this.loader<M>(args.knex, args);
    },
    loader<M extends Record<string, unknown>>(knex: Knex, values: V) {
      const loader = loaderOf<M>(knex, values, all) as LookupLoader<M>;
      let siblings: Map<SqlTemplate<Bound>, DataLoader<string, M | null>> | undefined;
      loader.fields = (projection) => {
        const template = templateFor(projection);
        if (template === all) return loader;
        siblings ??= new Map();
        let sibling = siblings.get(template);
        if (!sibling) siblings.set(template, (sibling = loaderOf<M>(knex, values, template)));
        return sibling;
      };
      return loader;
    },
  };
}
