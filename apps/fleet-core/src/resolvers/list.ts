import type { Knex } from 'knex';
import { pageOf, type Page, type PageArgs, type PageRules, type TableSpec } from '@fleetgraph/paging';
import type { FleetLoaders } from '../loaders';

/** A root paged list of fleet-core: the shared `pageOf` with this subgraph's codec. */
export const rootPage = <M>(
  loaders: FleetLoaders,
  name: string,
  spec: TableSpec,
  rules: PageRules,
  args: PageArgs,
  filters: Record<string, unknown>,
  base: Knex.QueryBuilder,
): Promise<Page<M>> => pageOf<M>({ codec: loaders.codec, name, spec, rules, args, filters, base });

export function nonEmpty<T>(values: readonly (T | null | undefined)[] | null | undefined): T[] | null {
  if (values == null) return null;
  return values.filter((v): v is T => v != null);
}
