/**
 * Query limits as an Apollo Server plugin. Depth, aliases and cost are checked once the operation
 * is parsed, validated and resolved (didResolveOperation), which is before the gateway plans or
 * fetches anything, so a refused query never reaches a subgraph. The token limit is enforced by
 * the parser itself (`parseOptions.maxTokens`, see {@link limitsParseOptions}) so an oversized
 * document is never fully parsed; this plugin then rewrites that parse error into the same
 * QUERY_TOO_COMPLEX shape as the other limits.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { countTokens, measureOperation } from './measure';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
  defaultPageSizeForCost: number;
}

export type LimitRule = 'depth' | 'aliases' | 'tokens' | 'cost';

export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';

const ADVICE: Record<LimitRule, string> = {
  depth: 'request fewer nested levels',
  aliases: 'use fewer aliased fields',
  tokens: 'send a shorter query',
  cost: 'request smaller pages (pageSize) or fewer nested lists',
};

export function queryTooComplex(rule: LimitRule, limit: number, measured: number): GraphQLError {
  return new GraphQLError(`Query ${rule} is ${measured}, over the maximum of ${limit}: ${ADVICE[rule]}.`, {
    extensions: { code: QUERY_TOO_COMPLEX, rule, limit, measured, http: { status: 400 } },
  });
}

/** Parse options for ApolloServer's `parseOptions`: the parser stops past maxTokens. */
export function limitsParseOptions(limits: QueryLimits): { maxTokens: number } {
  return { maxTokens: limits.maxTokens };
}

// graphql 16 spells it "more that N tokens"; accept the corrected spelling too.
const TOKEN_LIMIT_MESSAGE = /Document contains more tha[nt] \d+ tokens/;

export function queryLimitsPlugin<C extends BaseContext = BaseContext>(
  limits: QueryLimits,
): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          const measured = measureOperation({
            schema,
            document,
            operation,
            variables: request.variables,
            defaultPageSize: limits.defaultPageSizeForCost,
          });
          if (measured.depth > limits.maxDepth)
            throw queryTooComplex('depth', limits.maxDepth, measured.depth);
          if (measured.aliases > limits.maxAliases)
            throw queryTooComplex('aliases', limits.maxAliases, measured.aliases);
          if (measured.cost > limits.maxCost) throw queryTooComplex('cost', limits.maxCost, measured.cost);
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
