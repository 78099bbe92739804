/**
 * POST /oauth/revoke (RFC 7009).
 * - token is required (invalid_request); token_type_hint is optional;
 * - client authentication as at the token endpoint (a failed one is invalid_client 401); a token
 *   bound to a client may only be revoked by that client (anyone else gets 200 and nothing
 *   happens); a token issued without a client may be revoked by whoever holds it;
 * - a refresh token revokes its whole family: its refresh tokens and every access token issued
 *   from them (published to the shared revocation list);
 * - an access token is recorded revoked by jti and published to the revocation list;
 * - unknown, invalid or already revoked tokens: 200 all the same (RFC 7009 2.2);
 * - every revocation is audited.
 */
import type { FastifyInstance } from 'fastify';
import { revokeAccessToken } from '../data/access-tokens';
import { audit } from '../data/audit';
import { revokeFamily } from '../data/refresh-tokens';
import { authenticateClient } from '../oauth/checks/client';
import { readParams, requireParams } from '../oauth/checks/params';
import type { OAuthContext } from '../oauth/context';
import { findToken } from '../oauth/find-token';
import { publishRevocations } from '../oauth/revoke';
import { oauthEndpointDefaults } from './token';

export async function revokeRoutes(app: FastifyInstance, ctx: OAuthContext): Promise<void> {
  await oauthEndpointDefaults(app);

  app.post('/oauth/revoke', async (request, reply) => {
    const params = readParams(request.body);
    const client = await authenticateClient(ctx, request.headers.authorization, params);
    const { token } = requireParams(params, 'token');
    const found = await findToken(ctx, token, params.token_type_hint);
    const owner = found?.kind === 'refresh_token' ? found.row.clientId : (found?.clientId ?? null);
    if (found && (owner === null || owner === client.clientId)) {
      if (found.kind === 'refresh_token') {
        const revoked = await ctx.knex.transaction(async (trx) => {
          const tokens = await revokeFamily(trx, found.row.familyId);
          await audit(trx, 'token.revoked', {
            userId: found.row.userId,
            clientId: owner,
            ip: request.ip,
            detail: { kind: 'refresh_token', family: found.row.familyId, accessTokens: tokens.length },
          });
          return tokens;
        });
        await publishRevocations(ctx, revoked);
      } else if (!found.revoked && !found.expired) {
        await revokeAccessToken(ctx.knex, found.claims.jti);
        await audit(ctx.knex, 'token.revoked', {
          userId: found.claims.sub ?? null,
          clientId: owner,
          ip: request.ip,
          detail: { kind: 'access_token', jti: found.claims.jti },
        });
        await publishRevocations(ctx, [{ jti: found.claims.jti, exp: found.claims.exp }]);
      }
    }
    return reply.code(200).send({});
  });
}
