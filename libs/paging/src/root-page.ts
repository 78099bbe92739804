/**
 * A root paged list (`inspectionReports(...)`, `devices(...)`) in one call: `base` selects the
 * visible, filtered rows (no order, no limit); the page is cut by keyset on the spec's order, and
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
  rules: PageRules;
  args: PageArgs;
  /** the filter arguments as given (fingerprinted: a pageId is valid only with the same filters) */
  filters: Record<string, unknown>;
  /** the visible, filtered rows, without order or limit */
  base: Knex.QueryBuilder;
  /** the model fields to select (projectedFields); all columns when absent */
  fields?: readonly string[] | undefined;
}

export async function pageOf<M>(options: RootPageOptions): Promise<Page<M>> {
  const { codec, spec, base } = options;
  const request = pageRequest(codec, options.args, options.rules, fingerprint(options.name, options.filters));
  const rows = await applyKeyset(
    base.clone().select(selectColumns(spec, options.fields)),
    { columns: spec.order.columns, direction: spec.order.direction ?? 'asc' },
    request,
  );
  return toPage(codec, request, rows as M[], keyOf(spec) as (m: M) => unknown[], async () => {
    const row = (await base.clone().clearSelect().count('* as n').first()) as
      { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  });
}
