/**
 * The Paged contract's `count` is a thunk (libs/paging page.ts: computed only when selected).
 * graphql-js's default resolver calls a function-valued property; graphql-jit, which Mercurius
 * compiles hot queries with, reads the property as it is. Every `count` field without a resolver
 * (the Paged types, including the columnar ones without `list`) gets one that calls the thunk,
 * so both engines answer the same number.
 */
import { isObjectType, type GraphQLSchema } from 'graphql';

type Count = (() => Promise<number | null>) | number | null | undefined;

const resolveCount = (page: { count?: Count }) =>
  typeof page.count === 'function' ? page.count() : page.count;

export function resolvePagedCounts(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const count = type.getFields().count;
    if (count && !count.resolve) count.resolve = resolveCount;
  }
  return schema;
}
