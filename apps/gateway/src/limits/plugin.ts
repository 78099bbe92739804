/**
 * Query limits as an Apollo Server plugin. Depth, aliases and cost are checked once the operation
 * is parsed, validated and resolved (didResolveOperation), which is before the gateway plans or
 * fetches anything, so a refused query never reaches a subgraph. The token limit is enforced by
 * the parser itself (`parseOptions.maxTokens`, see {@link limitsParseOptions}) so an oversized
 * document is never fully parsed; this plugin then rewrites that parse error into the same
 * QUERY_TOO_COMPLEX shape as the other limits. Nesting is measured before Apollo Server sees the
 * request at all ({@link nestingPreHandler}): the parser would recurse into it.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import {
  checkSourceNesting,
  checkVariablesNesting,
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

/** The query text and variables of a GraphQL request, as POSTed (JSON) or sent as GET parameters. */
function requestParams(request: FastifyRequest): { query: unknown; variables: unknown } {
  if (request.method !== 'GET') {
    const body = request.body as { query?: unknown; variables?: unknown } | null | undefined;
    return { query: body?.query, variables: body?.variables };
  }
  const params = request.query as { query?: unknown; variables?: unknown };
  let variables: unknown;
  try {
    variables = typeof params.variables === 'string' ? JSON.parse(params.variables) : undefined;
  } catch {
    variables = undefined; // not JSON: Apollo Server answers that itself
  }
  return { query: params.query, variables };
}

/**
 * The GraphQL route's preHandler: a query text or variables nested deeper than `maxNesting` are
 * refused before Apollo Server parses them (graphql-js recurses once per level, and a deep enough
 * list literal broke the parser's stack), HTTP 400 QUERY_TOO_COMPLEX, rule `nesting`.
 */
export function nestingPreHandler(limits: QueryLimits) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const { query, variables } = requestParams(request);
    const error =
      (typeof query === 'string' ? checkSourceNesting(query, limits.maxNesting) : undefined) ??
      checkVariablesNesting(variables, limits.maxNesting);
    if (!error) return undefined;
    const { http: _http, ...extensions } = error.extensions;
    // As Apollo Server answers a request error: the current media type when the client takes it
    // (keeping the 400), else application/json (which jsonMediaTypeStatus turns into a 200).
    const current = /application\/graphql-response\+json/.test(request.headers.accept ?? '');
    return reply
      .code(400)
      .type(`${current ? 'application/graphql-response+json' : 'application/json'}; charset=utf-8`)
      .send({ errors: [{ message: error.message, extensions }] });
  };
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
