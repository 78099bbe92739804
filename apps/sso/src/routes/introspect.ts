/**
 * POST /oauth/introspect (RFC 7662).
 * - only an authenticated confidential client may introspect (resource servers and back ends):
 *   no or failed client authentication is invalid_client 401; a public client is refused too;
 * - token is required (invalid_request);
 * - an unknown, revoked, rotated-away or expired token is `{ "active": false }` and nothing else;
 * - an active token: active, scope, client_id, username (email), token_type, exp, iat, sub, aud,
 *   iss, jti (access tokens).
 */
import type { FastifyInstance } from 'fastify';
import { findUserById } from '../data/users';
import { OAuthError } from '../errors';
import { authenticateClient, requireClient } from '../oauth/checks/client';
import { readParams, requireParams } from '../oauth/checks/params';
import type { OAuthContext } from '../oauth/context';
import { findToken } from '../oauth/find-token';
import { oauthEndpointDefaults } from './token';

export async function introspectRoutes(app: FastifyInstance, ctx: OAuthContext): Promise<void> {
  await oauthEndpointDefaults(app);

  app.post('/oauth/introspect', async (request) => {
    const params = readParams(request.body);
    const client = await authenticateClient(ctx, request.headers.authorization, params);
    requireClient(client, 'token introspection');
    if (!client.application.confidential)
      throw new OAuthError('invalid_client', 'Only confidential clients may introspect tokens');
    const { token } = requireParams(params, 'token');

    const found = await findToken(ctx, token, params.token_type_hint);
    if (!found) return { active: false };
    if (found.kind === 'access_token') {
      if (found.revoked || found.expired) return { active: false };
      const { claims } = found;
      const user = claims.user?.uid ? await findUserById(ctx.knex, claims.user.uid) : undefined;
      if (!user || user.disabled) return { active: false };
      return {
        active: true,
        token_type: 'Bearer',
        scope: claims.scope ?? '',
        ...(found.clientId ? { client_id: found.clientId } : {}),
        username: user.email,
        sub: claims.sub,
        aud: claims.aud,
        iss: claims.iss,
        jti: claims.jti,
        iat: claims.iat,
        exp: claims.exp,
      };
    }
    const { row } = found;
    if (row.revokedAt || row.rotatedAt || row.expiresAt.getTime() <= Date.now()) return { active: false };
    const user = await findUserById(ctx.knex, row.userId);
    if (!user || user.disabled) return { active: false };
    return {
      active: true,
      token_type: 'refresh_token',
      scope: row.scope,
      ...(row.clientId ? { client_id: row.clientId } : {}),
      username: user.email,
      sub: row.userId,
      iss: ctx.config.issuer,
      exp: Math.floor(row.expiresAt.getTime() / 1000),
    };
  });
}
