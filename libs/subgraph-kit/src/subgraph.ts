/**
 * A domain subgraph: Fastify + Mercurius serving a schema built by @apollo/subgraph's
 * buildSubgraphSchema (so `_service` and `_entities` work as the gateway expects).
 *
 * Every request to /graphql must carry a valid access token: the subgraph verifies it itself
 * (cached per token), so a direct call is held to the same rules as one through the gateway.
 * Loaders are created per request, so entity lookups within one request are batched.
 * Before execution, argument values over the input limits (input-limits.ts: lists of more than
 * MAX_LIST_ITEMS items, strings with U+0000, too many `_entities` representations) are refused
 * with BAD_USER_INPUT.
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { DocumentNode } from 'graphql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import {
  checkDocumentLimits,
  checkSourceNesting,
  checkVariablesNesting,
  DEFAULT_QUERY_LIMITS,
  fieldCostsOf,
  type QueryLimits,
} from '@fleetgraph/query-limits';
import {
  AuthError,
  checkScopes,
  GATEWAY_SECRET_HEADER,
  isGatewaySecret,
  TENANT_HEADER,
  bearerChallenge,
  bearerToken,
  type TokenVerifier,
  type UserContext,
} from '@fleetgraph/auth';
import { DEFAULT_OVERLOAD_LIMITS, guardOverload, type OverloadLimits } from '@fleetgraph/service-kit';
import { errorResponse, SUBGRAPH_RETRY_AFTER_SECONDS } from './errors';
import { checkArgumentValues } from './input-limits';
import { DateTimeScalar, JsonScalar } from './scalars';
import { guardEntities } from './entities';
import { resolvePagedCounts } from './paged-count';
import { enforcePageRules } from './paged-fields';
import { viewerOf } from './viewer';

/** The shared scalars (libs/subgraph-kit/sdl) a schema declares, with their implementations. */
function sharedScalarsOf(typeDefs: DocumentNode): Record<string, unknown> {
  const declared = new Set(
    typeDefs.definitions.flatMap((d) => (d.kind === 'ScalarTypeDefinition' ? [d.name.value] : [])),
  );
  return Object.fromEntries(
    [DateTimeScalar, JsonScalar].filter((s) => declared.has(s.name)).map((s) => [s.name, s]),
  );
}

export interface SubgraphContext<L = unknown> {
  user: UserContext;
  reader: L;
  requestId: string;
  log: FastifyRequest['log'];
  /** Aborted when the caller stops waiting (the gateway's timeout, its client gone). */
  signal: AbortSignal;
}

export type Resolvers<L = unknown> = GraphQLResolverMap<SubgraphContext<L>>;

export interface SubgraphOptions<L> {
  typeDefs: DocumentNode;
  resolvers: Resolvers<L>;
  /** The request's reader (viewer, connection, loaders); its statements stop when `signal` fires (libs/db knexFor). */
  createReader: (user: UserContext, signal: AbortSignal) => L;
  verifier: TokenVerifier;
  path?: string;
  /** Maximum query depth accepted (defence in depth; the gateway enforces its own limits). */
  queryDepth?: number;
  /**
   * The gateway's query limits, applied here too (default DEFAULT_QUERY_LIMITS), so a direct call
   * to the subgraph's port cannot ask what the gateway would refuse.
   */
  limits?: QueryLimits;
  /**
   * When set, only requests carrying it in `x-fleetgraph-gateway` are served (the gateway sends
   * it): the subgraph's port cannot sidestep the gateway's rate limit. 403 FORBIDDEN otherwise.
   */
  gatewaySecret?: string;
  /** When to shed load (SHED_MAX_IN_FLIGHT, SHED_EVENT_LOOP_DELAY_MS; default DEFAULT_OVERLOAD_LIMITS). */
  overload?: OverloadLimits;
  /** The event loop's recent delay in ms (tests pass their own; default measured). */
  eventLoopDelay?: () => number;
}

/** Seconds a caller refused for load is told to wait. */
export const SUBGRAPH_BUSY_RETRY_SECONDS = 1;

declare module 'fastify' {
  interface FastifyRequest {
    user?: UserContext;
  }
}

/**
 * A signal that fires when the request's connection closes before its answer was sent: the
 * gateway aborted the call (its timeout, its own client gone), so nobody will read the answer.
 */
function abandonedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

export async function registerSubgraph<L>(app: FastifyInstance, options: SubgraphOptions<L>): Promise<void> {
  // The declared page sizes and weights (`@paged`, `@cost`): enforced on the paged fields, and
  // the cost estimate of the limits below.
  const costs = fieldCostsOf(options.typeDefs);
  const schema = guardEntities(
    resolvePagedCounts(
      enforcePageRules(
        buildSubgraphSchema([
          {
            typeDefs: options.typeDefs,
            resolvers: {
              ...sharedScalarsOf(options.typeDefs),
              ...options.resolvers,
            } as GraphQLResolverMap<unknown>,
          },
        ]),
        costs,
      ),
    ),
    options.typeDefs,
  );
  const path = options.path ?? '/graphql';

  await app.register(async (scope) => {
    scope.decorateRequest('user', undefined);
    // First: refusing work under load must cost less than the work (no token check, no parsing).
    guardOverload(app, scope, {
      limits: options.overload ?? DEFAULT_OVERLOAD_LIMITS,
      retryAfterSeconds: SUBGRAPH_BUSY_RETRY_SECONDS,
      ...(options.eventLoopDelay ? { eventLoopDelay: options.eventLoopDelay } : {}),
      // The caller's tenant as the gateway names it, else its login: shed first under load.
      callerOf: (request) =>
        String(request.headers[TENANT_HEADER] ?? request.headers.authorization ?? 'anonymous'),
      refuse: (reply, reason) =>
        reply.send({
          data: null,
          errors: [
            {
              message: `This service is busy (${reason}); retry in ${SUBGRAPH_BUSY_RETRY_SECONDS} s`,
              extensions: {
                code: 'SUBGRAPH_BUSY',
                retryable: true,
                retryAfterSeconds: SUBGRAPH_BUSY_RETRY_SECONDS,
              },
            },
          ],
        }),
    });
    scope.addHook('onRequest', async (request, reply) => {
      if (
        options.gatewaySecret &&
        !isGatewaySecret(request.headers[GATEWAY_SECRET_HEADER], options.gatewaySecret)
      ) {
        return reply.code(403).send({
          data: null,
          errors: [{ message: 'This subgraph answers the gateway only', extensions: { code: 'FORBIDDEN' } }],
        });
      }
      try {
        request.user = await options.verifier.verify(bearerToken(request.headers.authorization));
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        const challenge = bearerChallenge(error);
        return reply.code(challenge.status).header('www-authenticate', challenge.header).send(challenge.body);
      }
    });

    await scope.register(mercurius, {
      schema,
      path,
      graphiql: false,
      routes: true,
      queryDepth: options.queryDepth ?? 20,
      // A query seen once more is compiled by graphql-jit (measured: -10 % CPU on fleet-core's
      // deep page, tools/bench/src/subgraph-engine.ts).
      jit: 1,
      context: (request: FastifyRequest, reply: FastifyReply): SubgraphContext<L> => {
        const user = viewerOf(request.user as UserContext);
        const signal = abandonedSignal(reply);
        return {
          user,
          reader: options.createReader(user, signal),
          requestId: request.id,
          log: request.log,
          signal,
        };
      },
      errorFormatter: (execution, context) => {
        const reply = (
          context as unknown as { reply?: { log: FastifyRequest['log']; header(k: string, v: string): void } }
        ).reply;
        const answer = errorResponse(execution, reply?.log ?? app.log);
        if (answer.statusCode === 503) reply?.header('retry-after', String(SUBGRAPH_RETRY_AFTER_SECONDS));
        return answer;
      },
    });
    const limits = options.limits ?? DEFAULT_QUERY_LIMITS;
    // Before parsing, which recurses once per level: a query text nested too deeply.
    scope.graphql.addHook('preParsing', async (_schema, source) => {
      const error = checkSourceNesting(source, limits.maxNesting);
      if (error) throw error;
    });
    // Every request, before execution: lists over the documented maximum and strings PostgreSQL
    // cannot store are BAD_USER_INPUT rather than a database error (see input-limits.ts).
    // The gateway's limits (nesting of the variables, depth, aliases, cost, introspection roots),
    // then argument values.
    scope.graphql.addHook('preExecution', async (executed, document, context, variables) => {
      const values = variables as Record<string, unknown> | undefined;
      const user = (context as unknown as SubgraphContext<L>).user;
      const error =
        checkVariablesNesting(values, limits.maxNesting) ??
        checkScopes(document, user, values) ??
        checkDocumentLimits({ schema: executed, document, variables: values, limits, costs }) ??
        checkArgumentValues(document, values);
      if (error) throw error;
    });
  });
}
