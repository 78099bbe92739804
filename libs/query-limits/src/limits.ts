/**
 * The query limits every GraphQL server of the platform applies (the gateway before planning,
 * each subgraph before executing): depth, aliases, tokens, estimated cost and introspection
 * roots, each refusal a QUERY_TOO_COMPLEX error naming the rule, the limit and the measured value.
 */
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { FieldCosts } from './field-costs';
import { measureOperation, type OperationMeasure } from './measure';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
  /** `__schema`/`__type` roots per operation: each walks the whole schema. */
  maxIntrospectionRoots: number;
  /**
   * Deepest nesting of `{`, `[` and `(` in the query text, and of arrays and objects in a
   * variable's JSON (nesting.ts): measured before parsing, which recurses once per level.
   */
  maxNesting: number;
}

/** The gateway's defaults, which the subgraphs share unless configured. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxTokens: 5_000,
  maxCost: 250_000,
  maxIntrospectionRoots: 3,
  maxNesting: 64,
};

/**
 * The page size a paged field without a `@paged` declaration is costed at. The subgraph kit refuses
 * to serve a schema with such a field, so only a foreign schema meets it.
 */
export const UNDECLARED_PAGE_SIZE = 50;

export type LimitRule = 'depth' | 'aliases' | 'tokens' | 'cost' | 'introspection' | 'nesting';

export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';

const ADVICE: Record<LimitRule, string> = {
  depth: 'request fewer nested levels',
  aliases: 'use fewer aliased fields',
  tokens: 'send a shorter query',
  cost: 'request smaller pages (pageSize) or fewer nested lists',
  introspection: 'introspect the schema once per request',
  nesting: 'nest selections, lists and input objects less deeply',
};

export function queryTooComplex(
  rule: LimitRule,
  limit: number,
  measured: number,
  where: { variable: string } | Record<string, never> = {},
): GraphQLError {
  const what = 'variable' in where ? `Variable $${where.variable} ${rule}` : `Query ${rule}`;
  return new GraphQLError(`${what} is ${measured}, over the maximum of ${limit}: ${ADVICE[rule]}.`, {
    extensions: { code: QUERY_TOO_COMPLEX, rule, limit, measured, ...where, http: { status: 400 } },
  });
}

export interface OperationLimitsInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables?: Readonly<Record<string, unknown>> | undefined;
  limits: QueryLimits;
  /** The schema's declared page sizes and weights (fieldCostsOf). */
  costs?: FieldCosts | undefined;
}

/** The first limit a measured operation breaks, as the error to answer; undefined when within them all. */
export function limitRefusal(measured: OperationMeasure, limits: QueryLimits): GraphQLError | undefined {
  if (measured.depth > limits.maxDepth) return queryTooComplex('depth', limits.maxDepth, measured.depth);
  if (measured.aliases > limits.maxAliases)
    return queryTooComplex('aliases', limits.maxAliases, measured.aliases);
  if (measured.cost > limits.maxCost) return queryTooComplex('cost', limits.maxCost, measured.cost);
  if (measured.introspection > limits.maxIntrospectionRoots)
    return queryTooComplex('introspection', limits.maxIntrospectionRoots, measured.introspection);
  return undefined;
}

/** The operation's measure, with the schema's declared page sizes and weights. */
export function measureWithin(options: OperationLimitsInput): OperationMeasure {
  return measureOperation({ ...options, defaultPageSize: UNDECLARED_PAGE_SIZE });
}

/** The first limit an operation breaks, as the error to answer; undefined when within them all. */
export function checkOperationLimits(options: OperationLimitsInput): GraphQLError | undefined {
  return limitRefusal(measureWithin(options), options.limits);
}

/** checkOperationLimits over every operation of a document (a server that runs one of them). */
export function checkDocumentLimits(
  options: Omit<OperationLimitsInput, 'operation'>,
): GraphQLError | undefined {
  for (const definition of options.document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const error = checkOperationLimits({ ...options, operation: definition });
    if (error) return error;
  }
  return undefined;
}
