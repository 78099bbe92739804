/**
 * Query limits as an Apollo Server plugin. Depth, aliases and cost are checked once the operation
 * is parsed, validated and resolved (didResolveOperation), which is before the gateway plans or
 * fetches anything, so a refused query never reaches a subgraph. The token limit is enforced by
 * the parser itself (`parseOptions.maxTokens`, see {@link limitsParseOptions}) so an oversized
 * document is never fully parsed; this plugin then rewrites that parse error into the same
 * QUERY_TOO_COMPLEX shape as the other limits.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import {
  countTokens,
  limitRefusal,
  measureWithin,
  queryTooComplex,
  type FieldCosts,
  type OperationMeasure,
  type QueryLimits,
} from '@fleetgraph/query-limits';

export {
  QUERY_TOO_COMPLEX,
  queryTooComplex,
  type LimitRule,
  type QueryLimits,
} from '@fleetgraph/query-limits';

/** Parse options for ApolloServer's `parseOptions`: the parser stops past maxTokens. */
export function limitsParseOptions(limits: QueryLimits): { maxTokens: number } {
  return { maxTokens: limits.maxTokens };
}

// graphql 16 spells it "more that N tokens"; accept the corrected spelling too.
const TOKEN_LIMIT_MESSAGE = /Document contains more tha[nt] \d+ tokens/;

const measures = new WeakMap<object, OperationMeasure>();

/** The measure of the request's operation, once its limits were checked (the budget charges it). */
export function measureOf(context: object): OperationMeasure | undefined {
  return measures.get(context);
}

/**
 * `costs` answers the declared page sizes and weights of the schema being served (the supergraph's
 * `@paged` and `@cost`), read again when the supergraph changes.
 */
export function queryLimitsPlugin<C extends BaseContext = BaseContext>(
  limits: QueryLimits,
  costs: () => FieldCosts,
): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const measured = measureWithin({
            schema,
            document,
            operation,
            variables: request.variables,
            limits,
            costs: costs(),
          });
          const refusal = limitRefusal(measured, limits);
          if (refusal) throw refusal;
          measures.set(contextValue, measured);
        },
        async willSendResponse({ response, source }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          const errors = response.body.singleResult.errors;
          const index = errors.findIndex(
            (error) =>
              error.extensions?.code === 'GRAPHQL_PARSE_FAILED' && TOKEN_LIMIT_MESSAGE.test(error.message),
          );
          if (index < 0) return;
          const measured = source ? countTokens(source) : limits.maxTokens + 1;
          const { message, extensions } = queryTooComplex('tokens', limits.maxTokens, measured);
          const { http: _http, ...rest } = extensions;
          const replaced: GraphQLFormattedError = { message, extensions: rest };
          response.body.singleResult.errors = errors.map((error, i) => (i === index ? replaced : error));
        },
      };
    },
  };
}
