/**
 * Refresh-token grant (spec 5.5, RFC 6749 6, OAuth 2.0 Security BCP 4.14 rotation).
 * - refresh_token is required: invalid_request;
 * - an unknown, expired or revoked token is invalid_grant;
 * - a token bound to a client: a request naming no client is invalid_client, one authenticated as
 *   another client is invalid_grant (a refresh token of one client is useless to another);
 * - a registered client must be allowed the refresh_token grant (unauthorized_client);
 * - every use rotates: the presented token is marked rotated and a new one of the same family is
 *   issued atomically, and the family's earlier access tokens are revoked and published to the
 *   shared revocation list (a rotated-away access token stops working at the gateway), and two
 *   concurrent uses cannot both win. Fast path (no scope parameter): ONE autocommit statement,
 *   batched with concurrent refreshes, rotates with a compare-and-set (UPDATE ... WHERE rotated_at
 *   IS NULL AND revoked_at IS NULL AND not expired AND right client AND user not disabled) and,
 *   only if it matched, records the new refresh token, the access token and the audit row; the
 *   access token is signed after it. Any other case, or a lost race, goes through the slow path:
 *   one transaction holding the token's row lock, which classifies the failure and answers (and
 *   revokes) exactly;
 * - presenting an already rotated token is taken as theft: the whole family (its refresh tokens
 *   and the access tokens issued from it) is revoked, the access tokens are published to the
 *   shared revocation list, and the answer is invalid_grant;
 * - a scope parameter may only narrow the original scope (invalid_scope otherwise), and narrows
 *   only the access token: the new refresh token keeps the original scope (RFC 6749 section 6);
 * - the user must still exist and not be disabled.
 */
import { randomUUID } from 'node:crypto';
import type { RevokedAccessToken } from '../../data/access-tokens';
import { audit } from '../../data/audit';
import {
  findRefreshTokenForUpdate,
  hashRefreshToken,
  markRotated,
  newRefreshToken,
  revokeFamily,
  supersedeAccessTokens,
} from '../../data/refresh-tokens';
import { findUserById } from '../../data/users';
import { OAuthError } from '../../errors';
import { checkClientGrant } from '../checks/client';
import { requireParams } from '../checks/params';
import { checkScope } from '../checks/scope';
import type { ClientIdentity, OAuthContext, RequestMeta, TokenParams } from '../context';
import { issueTokens, newAccessTokenId, signAccessToken, tokenResponse, type TokenResponse } from '../issue';
import { publishRevocations } from '../revoke';

const INVALID = 'The refresh token is invalid, expired or revoked';

export async function refreshTokenGrant(
  ctx: OAuthContext,
  params: TokenParams,
  client: ClientIdentity,
  meta: RequestMeta,
): Promise<TokenResponse> {
  checkClientGrant(client, 'refresh_token');
  const { refresh_token: presented } = requireParams(params, 'refresh_token');
  const fast = await fastRefresh(ctx, params, client, meta, presented);
  if (fast) return fast;
  let revoked: RevokedAccessToken[] = [];

  // The transaction commits a family revocation before the error is thrown, so it must not throw.
  const outcome = await ctx.knex.transaction(async (trx): Promise<TokenResponse | OAuthError> => {
    const token = await findRefreshTokenForUpdate(trx, presented);
    if (!token || token.revokedAt) return new OAuthError('invalid_grant', INVALID);
    if (token.rotatedAt) {
      revoked = await revokeFamily(trx, token.familyId);
      await audit(trx, 'refresh.reused', {
        userId: token.userId,
        clientId: token.clientId,
        ip: meta.ip,
        detail: { family: token.familyId },
      });
      return new OAuthError('invalid_grant', INVALID);
    }
    if (token.expiresAt.getTime() <= Date.now()) return new OAuthError('invalid_grant', INVALID);
    if (token.clientId !== null) {
      if (client.clientId === null)
        return new OAuthError('invalid_client', 'Client authentication is required for this refresh token');
      if (client.clientId !== token.clientId)
        return new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    }
    let scope: string;
    try {
      scope = checkScope(params.scope, token.scope);
    } catch (error) {
      return error as OAuthError;
    }
    const user = await findUserById(trx, token.userId);
    if (!user || user.disabled) return new OAuthError('invalid_grant', INVALID);

    await markRotated(trx, token.id);
    revoked = await supersedeAccessTokens(trx, token.familyId);
    // The access token gets the (possibly narrowed) scope; the new refresh token keeps the
    // original one, so a later refresh may ask for it again (RFC 6749 section 6).
    const tokens = await issueTokens(ctx, trx, {
      user,
      clientId: token.clientId,
      scope,
      familyId: token.familyId,
      refreshScope: token.scope,
    });
    await audit(trx, 'token.issued', {
      userId: user.id,
      clientId: token.clientId,
      ip: meta.ip,
      detail: { grant: 'refresh_token' },
    });
    return tokens;
  });
  await publishRevocations(ctx, revoked);
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/**
 * The common case in ONE statement, batched with concurrent refreshes (data/refresh-rotation.ts):
 * no scope parameter, and the token valid for this client with an active user. The rotation
 * commits first and returns the user's claims; the access token is signed after it, with no
 * connection held. Returns undefined (having written nothing) whenever the request is not a
 * plain success; the slow path then decides the answer. A scope parameter always takes the slow
 * path (narrowing is rare and needs the token's scope before anything is written).
 */
async function fastRefresh(
  ctx: OAuthContext,
  params: TokenParams,
  client: ClientIdentity,
  meta: RequestMeta,
  presented: string,
): Promise<TokenResponse | undefined> {
  if (params.scope !== undefined) return undefined;
  const refreshToken = newRefreshToken();
  const access = newAccessTokenId(ctx);
  const rotation = await ctx.rotations.rotate({
    tokenHash: hashRefreshToken(presented),
    clientId: client.clientId,
    newId: randomUUID(),
    newHash: hashRefreshToken(refreshToken),
    jti: access.jti,
    accessExpiresAt: new Date(access.exp * 1000),
    ip: meta.ip,
  });
  if (!rotation) return undefined;
  const user = { id: rotation.userId, email: rotation.email, fullName: rotation.fullName };
  const signed = await signAccessToken(
    ctx,
    { user, clientId: rotation.clientId, scope: rotation.scope },
    access,
  );
  await publishRevocations(ctx, rotation.superseded);
  return tokenResponse(ctx, signed, refreshToken, rotation.scope);
}
