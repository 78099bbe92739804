/**
 * The whole-type selections of the scale benchmarks, generated from the gateway's schema: every
 * field without a required argument, objects and pages down to two object levels below a root's
 * list (the list's elements are level 1), leaves only at level 2, nested pages of `nestedPage`.
 */
import {
  getNamedType,
  isEnumType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';

type AnyField = GraphQLField<unknown, unknown>;

export interface SelectionOptions {
  nestedPage: number;
  /** `count` on every page (it counts the whole visible set, not a page). */
  count?: boolean;
  /** At level 1, the leaves and only this non-leaf field (every one when undefined, none when null). */
  only?: string | null;
}

export const requiredArgs = (field: AnyField) =>
  field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);

export const isLeaf = (field: AnyField) => {
  const type = getNamedType(field.type);
  return isScalarType(type) || isEnumType(type);
};

export const isPaged = (type: unknown): type is GraphQLObjectType =>
  isObjectType(type) && type.name.endsWith('Paged') && Boolean(type.getFields().list);

/** Arguments a field is given: a page of `pageSize`; nothing else (defaults apply). */
export const argsOf = (field: AnyField, pageSize: number) =>
  field.args.some((a) => a.name === 'pageSize') ? `(pageSize: ${pageSize})` : '';

/** The page part of a paged type: `next`, `count` when asked, and the list's selection. */
export function pageSelection(type: GraphQLObjectType, level: number, options: SelectionOptions): string {
  const element = getNamedType(type.getFields().list!.type);
  return `next${options.count ? ' count' : ''} list { ${selection(element, level, options)} }`;
}

/** The selection of `type` at `level` (see the module comment). */
export function selection(type: unknown, level: number, options: SelectionOptions): string {
  if (!isObjectType(type)) return '__typename';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (requiredArgs(field).length > 0) continue;
    if (isLeaf(field)) {
      parts.push(field.name);
      continue;
    }
    if (level >= 2 || (level === 1 && options.only !== undefined && field.name !== options.only)) continue;
    const target = getNamedType(field.type);
    const args = argsOf(field, options.nestedPage);
    const inner = { ...options, only: undefined };
    if (isPaged(target)) parts.push(`${field.name}${args} { ${pageSelection(target, level + 1, inner)} }`);
    else parts.push(`${field.name}${args} { ${selection(target, level + 1, inner)} }`);
  }
  return parts.length > 0 ? parts.join(' ') : '__typename';
}
