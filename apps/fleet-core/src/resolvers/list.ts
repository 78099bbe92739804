import type { GraphQLResolveInfo } from 'graphql';
import type { Knex } from 'knex';
import {
  pageOf,
  projectedFields,
  type Page,
  type PageArgs,
  type PageRules,
  type TableSpec,
} from '@fleetgraph/paging';
import { listFields, selectedFields, type SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetLoaders } from '../loaders';
import { relations, type RelationName } from '../data/relation-specs';

/** A root paged list of fleet-core: the shared `pageOf` with this subgraph's codec. */
export const rootPage = <M>(
  loaders: FleetLoaders,
  name: string,
  spec: TableSpec,
  rules: PageRules,
  args: PageArgs,
  filters: Record<string, unknown>,
  base: Knex.QueryBuilder,
  info?: GraphQLResolveInfo,
): Promise<Page<M>> =>
  pageOf<M>({
    codec: loaders.codec,
    name,
    spec,
    rules,
    args,
    filters,
    base,
    fields: info ? projectedFields(spec, listFields(info)) : undefined,
  });

/**
 * A nested paged field: the relation's batched loader, selecting only the columns the selection
 * reads (TableSpec.fieldNeeds of the child table; every column for a table without them).
 */
export const page =
  (relation: RelationName) =>
  (
    parent: { id: string },
    args: PageArgs & Record<string, unknown>,
    { loaders }: SubgraphContext<FleetLoaders>,
    info: GraphQLResolveInfo,
  ) =>
    loaders.relations[relation].load({
      parentId: parent.id,
      args,
      fields: projectedFields(relations[relation].child, listFields(info)),
    });

export function nonEmpty<T>(values: readonly (T | null | undefined)[] | null | undefined): T[] | null {
  if (values == null) return null;
  return values.filter((v): v is T => v != null);
}

/** The model fields an object field's selection reads from `spec` (a lookup's projection). */
export const objectFields = (spec: TableSpec, info: GraphQLResolveInfo) =>
  projectedFields(spec, selectedFields(info));
