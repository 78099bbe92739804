/**
 * Pure measurements of a GraphQL operation for the gateway's query limits: depth, aliases and an
 * estimated cost (each field 1, or the weight its schema declares with `@cost`; a paged field — one
 * taking `pageSize` — multiplies the cost of its selection by its page size: the one asked, the one
 * a follow-up page's cursor carries, else the field's `@paged` default), plus a token count of the
 * source text.
 *
 * Fragments are expanded where they are spread (each fragment measured once and memoized, so a
 * fragment spread many times costs nothing extra to measure, and a fragment cycle counts as empty
 * instead of looping). Introspection (`__schema`, `__type`) is not costed per field (its size is
 * the schema's, not the data's) but each root walks the whole schema, so roots are counted
 * (`introspection`: a document of 30 aliased `__schema` walks answered megabytes and held the
 * event loop over a second); its aliases count, and its depth counts except along `ofType` chains
 * (the standard IntrospectionQuery nests `ofType` eight levels deep, harmlessly).
 */
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ArgumentNode,
  type ValueNode,
  type DocumentNode,
} from 'graphql';
import { cursorPageSize } from '@fleetgraph/paging';
import type { FieldCost, FieldCosts } from './field-costs';

export interface OperationMeasure {
  /** Deepest field nesting; a root field is depth 1. */
  depth: number;
  /** Aliased fields, counting each fragment once per spread. */
  aliases: number;
  /** Estimated cost: fields, multiplied by page sizes on paged fields. */
  cost: number;
  /** Introspection roots (`__schema`, `__type`), counting each fragment once per spread. */
  introspection: number;
}

export interface MeasureOptions {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables?: Readonly<Record<string, unknown>> | undefined;
  /** Each field's declared page sizes and weight (fieldCostsOf), by `Type.field`. */
  costs?: FieldCosts | undefined;
  /** Page size assumed for a paged field called without pageSize that declares no `@paged` default. */
  defaultPageSize: number;
}

const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);
const ZERO: OperationMeasure = { depth: 0, aliases: 0, cost: 0, introspection: 0 };

export function measureOperation(options: MeasureOptions): OperationMeasure {
  const { schema, document, operation, variables = {}, defaultPageSize, costs } = options;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const variableDefaults = new Map<string, ValueNode>();
  for (const definition of operation.variableDefinitions ?? [])
    if (definition.defaultValue)
      variableDefaults.set(definition.variable.name.value, definition.defaultValue);

  const memo = new Map<string, OperationMeasure>();
  const inProgress = new Set<string>();

  /** An argument's value: a literal, or a variable's value (or its default). */
  const valueOf = (value: ValueNode | undefined): unknown => {
    if (value?.kind === Kind.INT) return Number.parseInt(value.value, 10);
    if (value?.kind === Kind.STRING) return value.value;
    if (value?.kind === Kind.VARIABLE) {
      const name = value.name.value;
      if (variables[name] !== undefined && variables[name] !== null) return variables[name];
      const fallback = variableDefaults.get(name);
      if (fallback?.kind === Kind.INT) return Number.parseInt(fallback.value, 10);
      if (fallback?.kind === Kind.STRING) return fallback.value;
    }
    return undefined;
  };
  /**
   * pageSize when given; on a follow-up page (pageId only) the size its cursor carries; else the
   * field's declared default.
   */
  const pageSizeOf = (args: readonly ArgumentNode[] | undefined, declared: FieldCost | undefined): number => {
    const size = valueOf(args?.find((arg) => arg.name.value === 'pageSize')?.value);
    if (typeof size === 'number' && Number.isFinite(size)) return Math.max(0, Math.trunc(size));
    const pageId = valueOf(args?.find((arg) => arg.name.value === 'pageId')?.value);
    return (
      (typeof pageId === 'string' ? cursorPageSize(pageId) : undefined) ??
      declared?.defaultPageSize ??
      defaultPageSize
    );
  };

  const walk = (
    selectionSet: SelectionSetNode,
    parentType: GraphQLNamedType | undefined,
    introspection = false,
  ): OperationMeasure => {
    let depth = 0;
    let aliases = 0;
    let cost = 0;
    let introspectionRoots = 0;
    const add = (child: OperationMeasure) => {
      depth = Math.max(depth, child.depth);
      aliases += child.aliases;
      cost += child.cost;
      introspectionRoots += child.introspection;
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const aliased = selection.alias ? 1 : 0;
        if (introspection || INTROSPECTION_FIELDS.has(name)) {
          // Answered by the gateway itself: no cost, but its aliases count, and so does its depth
          // except for `ofType` chains (type wrappers, at most a few levels of data whatever the
          // query asks), so the standard IntrospectionQuery fits while fields { type { fields ...
          // amplification does not.
          const child = selection.selectionSet ? walk(selection.selectionSet, undefined, true) : ZERO;
          depth = Math.max(depth, (name === 'ofType' ? 0 : 1) + child.depth);
          aliases += aliased + child.aliases;
          if (!introspection) introspectionRoots += 1;
          continue;
        }
        if (name === '__typename') {
          depth = Math.max(depth, 1);
          aliases += aliased;
          continue;
        }
        const fieldDef =
          parentType && (isObjectType(parentType) || isInterfaceType(parentType))
            ? parentType.getFields()[name]
            : undefined;
        const child = selection.selectionSet
          ? walk(selection.selectionSet, fieldDef ? getNamedType(fieldDef.type) : undefined)
          : ZERO;
        const paged =
          fieldDef?.args.some((arg) => arg.name === 'pageSize') ||
          selection.arguments?.some((arg) => arg.name.value === 'pageSize');
        const declared = parentType ? costs?.get(`${parentType.name}.${name}`) : undefined;
        const multiplier = paged ? pageSizeOf(selection.arguments, declared) : 1;
        depth = Math.max(depth, 1 + child.depth);
        aliases += aliased + child.aliases;
        cost += (declared?.weight ?? 1) + multiplier * child.cost;
        introspectionRoots += child.introspection;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? schema.getType(selection.typeCondition.name.value)
          : parentType;
        add(walk(selection.selectionSet, type ?? undefined, introspection));
      } else {
        const name = selection.name.value;
        const memoKey = `${introspection ? 'i' : 'q'}:${name}`;
        const cached = memo.get(memoKey);
        if (cached) {
          add(cached);
          continue;
        }
        const fragment = fragments.get(name);
        if (!fragment || inProgress.has(name)) continue; // unknown fragment or a cycle: nothing to add
        inProgress.add(name);
        const measured = walk(
          fragment.selectionSet,
          schema.getType(fragment.typeCondition.name.value) ?? undefined,
          introspection,
        );
        inProgress.delete(name);
        memo.set(memoKey, measured);
        add(measured);
      }
    }
    return { depth, aliases, cost, introspection: introspectionRoots };
  };

  const rootType = schema.getRootType(operation.operation) ?? undefined;
  return walk(operation.selectionSet, rootType);
}

/**
 * Tokens of a GraphQL source, counted as graphql-js' `maxTokens` parse option counts them
 * (punctuators, names and values; not comments or the end). Counting stops at a lexical error.
 */
export function countTokens(source: string): number {
  const lexer = new Lexer(new Source(source));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  } catch {
    // A syntax error: the tokens before it are the measure; the parser reports the error itself.
  }
  return count;
}
