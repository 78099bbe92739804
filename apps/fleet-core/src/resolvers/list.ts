import type { Knex } from 'knex';
import {
  applyKeyset,
  fingerprint,
  pageRequest,
  toPage,
  type Page,
  type PageArgs,
  type PageRules,
} from '@fleetgraph/paging';
import type { FleetLoaders } from '../loaders';
import { keyOf, selectColumns, type TableSpec } from '../data/tables';

/**
 * A root paged list: `base` selects the visible, filtered rows (no order, no limit); the page is
 * cut by keyset on the table's order, and `count` runs only if selected.
 */
export async function rootPage<M>(
  loaders: FleetLoaders,
  name: string,
  spec: TableSpec,
  rules: PageRules,
  args: PageArgs,
  filters: Record<string, unknown>,
  base: Knex.QueryBuilder,
): Promise<Page<M>> {
  const request = pageRequest(loaders.codec, args, rules, fingerprint(name, filters));
  const rows = await applyKeyset(
    base.clone().select(selectColumns(spec)),
    { columns: spec.order.columns, direction: spec.order.direction ?? 'asc' },
    request,
  );
  return toPage(codec(loaders), request, rows as M[], keyOf(spec) as (m: M) => unknown[], async () => {
    const row = (await base.clone().count('* as n').first()) as { n: number } | undefined;
    return row?.n ?? 0;
  });
}

const codec = (loaders: FleetLoaders) => loaders.codec;

export function nonEmpty<T>(values: readonly (T | null | undefined)[] | null | undefined): T[] | null {
  if (values == null) return null;
  return values.filter((v): v is T => v != null);
}
