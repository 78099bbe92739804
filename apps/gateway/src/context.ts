import { GraphQLError } from 'graphql';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
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
}

/**
 * Every operation needs a valid access token (spec 5: the queries that need none are not named,
 * so none are open). A missing or bad token stops the request before planning: UNAUTHENTICATED,
 * HTTP 401, and no data.
 */
export function contextFactory(verifier: TokenVerifier) {
  return async (request: FastifyRequest): Promise<GatewayContext> => {
    try {
      const token = bearerToken(request.headers.authorization);
      const user = await verifier.verify(token);
      return { user, token, requestId: request.id, log: request.log, observation: observationFor(request) };
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
