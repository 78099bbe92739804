import { GraphQLError } from 'graphql';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthError,
  bearerChallenge,
  bearerToken,
  type TokenVerifier,
  type UserContext,
} from '@fleetgraph/auth';
import { observationFor, type Observation } from './observability/plugin';

export interface GatewayContext {
  user: UserContext;
  token: string;
  requestId: string;
  /** The request's logger (its lines carry requestId): what serving the request logs through. */
  log: FastifyBaseLogger;
  /** Filled while the request runs (operation name), read by the metrics when it is answered. */
  observation: Observation;
  /**
   * The caller's tenant (its organization, budget/tenants.ts): the unit of the organization
   * budget and of fair queuing at the subgraphs. Empty until the tenant is known.
   */
  tenant: string;
  /** Aborted when the client goes away before its answer is sent: subgraph calls then stop. */
  signal: AbortSignal;
  /** Set on the operations the gateway runs for itself (not charged to any budget). */
  internal?: boolean;
}

/** A signal aborted when the response's connection closes before the response was sent. */
function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Every operation needs a valid access token (spec 5: the queries that need none are not named,
 * so none are open). A missing or bad token stops the request before planning: UNAUTHENTICATED,
 * HTTP 401, and no data.
 */
export function contextFactory(verifier: TokenVerifier) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<GatewayContext> => {
    try {
      const token = bearerToken(request.headers.authorization);
      const user = await verifier.verify(token);
      return {
        user,
        token,
        requestId: request.id,
        log: request.log,
        observation: observationFor(request),
        tenant: '',
        signal: clientGoneSignal(reply),
      };
    } catch (error) {
      if (error instanceof AuthError) {
        const challenge = bearerChallenge(error);
        throw new GraphQLError(error.message, {
          extensions: {
            code: 'UNAUTHENTICATED',
            http: { status: challenge.status, headers: new Map([['www-authenticate', challenge.header]]) },
          },
        });
      }
      throw error;
    }
  };
}
