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
import type { VehicleDataLoaders } from '../services';

export interface ListSpec {
  /** `expression as field` select list */
  select: (string | Knex.Raw)[];
  /** keyset order: qualified columns (last one unique) and the matching row fields */
  order: { columns: string[]; fields: string[] };
}

/**
 * A root paged list (as fleet-core's): `base` selects the filtered rows (no order, no limit); the
 * page is cut by keyset on the spec's order, and `count` runs only if selected.
 */
export async function rootPage<M>(
  loaders: VehicleDataLoaders,
  name: string,
  spec: ListSpec,
  rules: PageRules,
  args: PageArgs,
  filters: Record<string, unknown>,
  base: Knex.QueryBuilder,
): Promise<Page<M>> {
  const request = pageRequest(loaders.codec, args, rules, fingerprint(name, filters));
  const rows = await applyKeyset(base.clone().select(spec.select), { columns: spec.order.columns }, request);
  const keyOf = (row: M) => spec.order.fields.map((f) => (row as Record<string, unknown>)[f]);
  return toPage(loaders.codec, request, rows as M[], keyOf, async () => {
    const row = (await base.clone().count('* as n').first()) as { n: number } | undefined;
    return row?.n ?? 0;
  });
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
export const lower = (values: string[]) => values.map((v) => v.trim().toLowerCase());
