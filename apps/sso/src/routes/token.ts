/**
 * POST /oauth/token (spec 4.3, 5.2, 5.5; RFC 6749 5).
 * - accepts a form (application/x-www-form-urlencoded) or JSON; any other or malformed body is
 *   invalid_request, never a 415/500;
 * - every answer, success or error, carries Cache-Control: no-store and Pragma: no-cache;
 * - errors are `{ error, error_description }`; invalid_client is 401 with WWW-Authenticate;
 *   a throttled password check is 429 with Retry-After (see grants/password.ts); the database
 *   being away is 503 temporarily_unavailable with Retry-After;
 * - pipeline: read params -> grant type -> client authentication -> grant (its own checks) -> tokens.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@fleetgraph/db';
import { OAuthError, temporarilyUnavailable, wwwAuthenticate } from '../errors';
import { authenticateClient } from '../oauth/checks/client';
import { checkGrantType } from '../oauth/checks/grant-type';
import { readParams } from '../oauth/checks/params';
import type { OAuthContext } from '../oauth/context';
import { authorizationCodeGrant } from '../oauth/grants/authorization-code';
import { passwordGrant } from '../oauth/grants/password';
import { refreshTokenGrant } from '../oauth/grants/refresh-token';

const GRANTS = {
  authorization_code: authorizationCodeGrant,
  password: passwordGrant,
  refresh_token: refreshTokenGrant,
} as const;
const SUPPORTED = Object.keys(GRANTS) as (keyof typeof GRANTS)[];

/** Maps any error of an OAuth endpoint to an RFC 6749 error response. */
export function oauthErrorHandler(
  error: Error & { statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let oauthError: OAuthError;
  if (error instanceof OAuthError) {
    oauthError = error;
  } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own client errors: unsupported content type, malformed JSON, body too large...
    oauthError = new OAuthError('invalid_request', `The request could not be read: ${error.message}`);
  } else if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    oauthError = temporarilyUnavailable(DATABASE_RETRY_AFTER_SECONDS);
  } else {
    request.log.error({ err: error }, 'oauth request failed');
    oauthError = new OAuthError('server_error', 'Internal server error');
  }
  const challenge = wwwAuthenticate(oauthError);
  const retryAfter = (oauthError as OAuthError & { retryAfter?: number }).retryAfter;
  if (retryAfter) reply.header('retry-after', String(retryAfter));
  if (challenge) reply.header('www-authenticate', challenge);
  return reply.code(oauthError.status).send(oauthError.toJSON());
}

/** Form bodies, RFC 6749 errors and no-store answers: what every OAuth JSON endpoint shares. */
export async function oauthEndpointDefaults(app: FastifyInstance): Promise<void> {
  await app.register(formbody);
  app.setErrorHandler(oauthErrorHandler);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
  });
}

export async function tokenRoutes(app: FastifyInstance, ctx: OAuthContext): Promise<void> {
  await oauthEndpointDefaults(app);

  app.post('/oauth/token', async (request) => {
    const params = readParams(request.body);
    const grantType = checkGrantType(params, SUPPORTED);
    const client = await authenticateClient(ctx, request.headers.authorization, params);
    return GRANTS[grantType](ctx, params, client, { ip: request.ip });
  });
}
