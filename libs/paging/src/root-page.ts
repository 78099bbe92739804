/**
 * A root paged list (`inspectionReports(...)`, `devices(...)`) in one call: `base` selects the
 * visible, filtered rows (no limit; no order, or only a leading order that leaves the spec's
 * order the same, for an index to walk); the page is cut by keyset on the spec's order, and
 * `count` is a thunk run only when the client selects it. Every subgraph uses this one function,
 * so `count` has one meaning everywhere: the exact number of rows matching the filters.
 */
import type { Knex } from 'knex';
import type { CursorCodec } from './cursor';
import { fingerprint } from './cursor';
import { applyKeyset } from './keyset';
import { pageRequest, toPage, type Page, type PageArgs, type PageRules } from './page';
import { keyOf, selectColumns, type TableSpec } from './table-spec';

export interface RootPageOptions {
  codec: CursorCodec;
  /** the field's name: part of the cursor fingerprint, so a pageId cannot move to another field */
  name: string;
  spec: TableSpec;
  /** Page-size rules for callers outside a schema; a paged field has its own (`@paged`). */
  rules?: PageRules;
  args: PageArgs;
  /** the filter arguments as given (fingerprinted: a pageId is valid only with the same filters) */
  filters: Record<string, unknown>;
  /**
   * the visible, filtered rows, without limit; or a function of the keyset position the page
   * continues after (null for the first page and for `count`), for a base that bounds its own
   * index range by it: that base keeps only the rows after the position, in every shape it has
   * (pageOf then adds only the order and the limit)
   */
  base: Knex.QueryBuilder | ((after: readonly unknown[] | null) => Knex.QueryBuilder);
  /**
   * the rows `count` counts, when they are better read in another shape than the page's (a base
   * that walks an index testing each row fills a page cheaply but would test every row to count
   * them), made only when `count` is selected; `base` (first page) when absent
   */
  countBase?: () => Knex.QueryBuilder;
  /** the model fields to select (projectedFields); all columns when absent */
  fields?: readonly string[] | undefined;
}

export async function pageOf<M>(options: RootPageOptions): Promise<Page<M>> {
  const { codec, spec, base: given } = options;
  const request = pageRequest(codec, options.args, options.rules, fingerprint(options.name, options.filters));
  // A function base applies the keyset position itself; pageOf then adds only order and limit.
  const bounded = typeof given === 'function';
  const base = bounded ? given : () => given.clone();
  const positioned = bounded ? { ...request, after: null } : request;
  const rows = await applyKeyset(
    base(request.after).select(selectColumns(spec, options.fields)),
    { columns: spec.order.columns, direction: spec.order.direction ?? 'asc' },
    positioned,
  );
  return toPage(codec, request, rows as M[], keyOf(spec) as (m: M) => unknown[], async () => {
    const counted = options.countBase?.() ?? base(null);
    const row = (await counted.clearSelect().clearOrder().count('* as n').first()) as
      { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  });
}
