/**
 * The `@paged(default:, max:)` declaration of every paged field is the one source of its page-size
 * rules: the gateway's cost estimate reads it from the supergraph, and here the subgraph enforces
 * it before the field's resolver runs:
 * - a `pageSize` outside 1..max is BAD_USER_INPUT naming the maximum;
 * - a first page asked without `pageSize` gets the declared default (a follow-up page, `pageId`
 *   without `pageSize`, keeps the size its cursor carries).
 * A schema with a field that takes `pageSize` without declaring `@paged` is refused at start.
 */
import { badInput } from '@fleetgraph/paging';
import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import type { FieldCosts } from '@fleetgraph/query-limits';

export interface PageRules {
  defaultSize: number;
  maxSize: number;
}

/** The declared page rules of one field, from the schema's cost table (fieldCostsOf). */
export function declaredPageRules(costs: FieldCosts, coordinate: string): PageRules | undefined {
  const cost = costs.get(coordinate);
  if (cost?.defaultPageSize === undefined || cost.maxPageSize === undefined) return undefined;
  return { defaultSize: cost.defaultPageSize, maxSize: cost.maxPageSize };
}

type Args = Record<string, unknown> & { pageSize?: unknown; pageId?: unknown };

/** `args` with the page size checked against `rules` and the default filled in on a first page. */
export function applyPageRules(args: Args, rules: PageRules): Args {
  const size = args.pageSize;
  if (size !== undefined && size !== null) {
    if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > rules.maxSize)
      throw badInput(`pageSize must be between 1 and ${rules.maxSize} (got ${String(size)}).`, {
        argument: 'pageSize',
        maxPageSize: rules.maxSize,
      });
    return args;
  }
  if (args.pageId !== undefined && args.pageId !== null && args.pageId !== '') return args;
  return { ...args, pageSize: rules.defaultSize };
}

export function enforcePageRules(schema: GraphQLSchema, costs: FieldCosts): GraphQLSchema {
  const undeclared: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.args.some((arg) => arg.name === 'pageSize')) continue;
      const coordinate = `${type.name}.${field.name}`;
      const rules = declaredPageRules(costs, coordinate);
      if (!rules) {
        undeclared.push(coordinate);
        continue;
      }
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) =>
        resolve(source, applyPageRules(args as Args, rules), context, info);
    }
  }
  if (undeclared.length > 0)
    throw new Error(
      `paged fields without @paged(default:, max:): ${undeclared.join(', ')}. Declare each field's page sizes in its schema.`,
    );
  return schema;
}
