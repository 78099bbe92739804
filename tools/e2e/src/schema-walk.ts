/**
 * Documents that select every field of a type, for the coverage tests that run each root of the
 * real graph with all its fields (fleet-coverage, dvir-gateway).
 */
import {
  getNamedType,
  isEnumType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';

export type AnyField = GraphQLField<unknown, unknown>;

/** Arguments a call must give (non-null, no default). */
export const requiredArgs = (field: AnyField) =>
  field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);

export const isLeaf = (field: AnyField) => {
  const type = getNamedType(field.type);
  return isScalarType(type) || isEnumType(type);
};

/** A page of the paging contract (`…Paged`: count, list, next). */
export const isPaged = (type: GraphQLObjectType) => type.name.endsWith('Paged');

export interface SelectionRules {
  /** Object hops below the root before types are no longer expanded. */
  maxHops: number;
  /** The arguments given to a nested field, e.g. `(pageSize: 4)`, or ''. */
  nestedArgs(field: AnyField): string;
  /** Types selected by `__typename` and id only wherever they are met (another team's entities). */
  linkOnly?: ReadonlySet<string>;
}

/**
 * Every field of `type` that needs no argument. Each object type is expanded in full once per
 * document (`expanded`); met again, too deep, or link-only, only its `__typename` and id are
 * selected (the link still resolves). A page is always selected whole, its elements following the
 * same rule.
 */
export function fullSelection(
  type: GraphQLObjectType,
  rules: SelectionRules,
  hops = 0,
  expanded = new Set<string>(),
): string {
  if (!isPaged(type)) expanded.add(type.name);
  const parts = ['__typename'];
  for (const field of Object.values(type.getFields())) {
    if (requiredArgs(field).length > 0) continue;
    if (isLeaf(field)) {
      parts.push(field.name);
      continue;
    }
    const target = getNamedType(field.type) as GraphQLObjectType;
    const args = rules.nestedArgs(field);
    const linkOnly = rules.linkOnly?.has(target.name) ?? false;
    if (linkOnly || (!isPaged(target) && (expanded.has(target.name) || hops >= rules.maxHops))) {
      parts.push(`${field.name}${args} { __typename${target.getFields().id ? ' id' : ''} }`);
      continue;
    }
    const next = isPaged(target) ? hops : hops + 1;
    parts.push(`${field.name}${args} { ${fullSelection(target, rules, next, expanded)} }`);
  }
  return parts.join(' ');
}
