import type { GraphQLResolveInfo } from 'graphql';
import type { Knex } from 'knex';
import { pageOf, type Page, type PageArgs, type TableSpec } from '@fleetgraph/paging';
import { listProjection, type SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { FleetReader } from '../reader';
import { relations, type RelationName } from '../data/relation-specs';

/** A root paged list of fleet-core: the shared `pageOf` with this subgraph's codec. */
export const rootPage = <M>(
  reader: FleetReader,
  name: string,
  spec: TableSpec,
  args: PageArgs,
  filters: Record<string, unknown>,
  base: Knex.QueryBuilder,
  info?: GraphQLResolveInfo,
): Promise<Page<M>> =>
  pageOf<M>({
    codec: reader.codec,
    name,
    spec,
    args,
    filters,
    base,
    fields: info ? listProjection(spec, info) : undefined,
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
    { reader }: SubgraphContext<FleetReader>,
    info: GraphQLResolveInfo,
  ) =>
    reader.relations.get(relation).load({
      parentId: parent.id,
      args,
      fields: listProjection(relations[relation].child, info),
    });

export function nonEmpty<T>(values: readonly (T | null | undefined)[] | null | undefined): T[] | null {
  if (values == null) return null;
  return values.filter((v): v is T => v != null);
}
