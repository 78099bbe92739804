/**
 * GET /api/v1/users/me (spec 5.6, RFC 6750).
 * - the access token comes from the `access_token` query parameter or an Authorization: Bearer
 *   header; both at once is invalid_request (RFC 6750 2);
 * - the token must verify against this SSO's own keys (RS256, issuer, audience, exp) and its jti
 *   must be one this SSO issued and has not revoked;
 * - its user must still exist and not be disabled;
 * - a missing or refused token is 401 invalid_token with WWW-Authenticate: Bearer;
 * - the answer is { uid, full_name, email, language }, not cacheable.
 */
import type { FastifyInstance } from 'fastify';
import { AuthError, bearerToken, createTokenVerifier } from '@fleetgraph/auth';
import { isAccessTokenRevoked } from '../data/access-tokens';
import { findUserById } from '../data/users';
import { OAuthError } from '../errors';
import type { OAuthContext } from '../oauth/context';
import { oauthErrorHandler } from './token';

function presentedToken(query: unknown, authorization: string | undefined): string {
  const fromQuery = (query as Record<string, unknown> | undefined)?.access_token;
  if (Array.isArray(fromQuery))
    throw new OAuthError('invalid_request', 'access_token is included more than once');
  if (fromQuery !== undefined && typeof fromQuery !== 'string')
    throw new OAuthError('invalid_request', 'access_token must be a string');
  if (fromQuery && authorization) {
    throw new OAuthError(
      'invalid_request',
      'Send the access token in one way only: the access_token parameter or the Authorization header',
    );
  }
  if (fromQuery) return fromQuery;
  try {
    return bearerToken(authorization);
  } catch (error) {
    throw new OAuthError('invalid_token', (error as AuthError).message);
  }
}

export async function usersMeRoutes(app: FastifyInstance, ctx: OAuthContext): Promise<void> {
  const verifier = createTokenVerifier({
    issuer: ctx.config.issuer,
    audience: ctx.config.audience,
    jwks: ctx.keys.resolver,
    isRevoked: (jti) => isAccessTokenRevoked(ctx.knex, jti),
  });
  app.setErrorHandler(oauthErrorHandler);

  app.get('/api/v1/users/me', async (request, reply) => {
    const token = presentedToken(request.query, request.headers.authorization);
    let uid: string;
    try {
      ({ uid } = await verifier.verify(token));
    } catch (error) {
      if (error instanceof AuthError) throw new OAuthError('invalid_token', error.message);
      throw error;
    }
    const user = await findUserById(ctx.knex, uid);
    if (!user || user.disabled) throw new OAuthError('invalid_token', 'The access token is not valid');
    reply.header('cache-control', 'no-store');
    return { uid: user.id, full_name: user.fullName, email: user.email, language: user.language };
  });
}
