/**
 * Authorization-code grant (spec 5.3 step 3, RFC 6749 4.1.3, RFC 7636, Security BCP 4.5).
 * - the client must authenticate (confidential: secret; public: client_id with `none`) and be
 *   allowed the authorization_code grant;
 * - code is required (invalid_request); unknown or expired codes are invalid_grant;
 * - a code is single-use: a second presentation revokes every token issued from it (its token
 *   family, published to the revocation list) and answers invalid_grant;
 * - the code must have been issued to this client (invalid_grant);
 * - redirect_uri must equal, character for character, the one of the authorization request; it
 *   may be left out only when the authorization request left it out too (RFC 6749 4.1.3; the
 *   application then has one registered URI) (invalid_grant);
 * - PKCE per checks/pkce.ts;
 * - the user must still exist and not be disabled;
 * - the tokens carry client_id; the refresh token is bound to the client.
 */
import type { RevokedAccessToken } from '../../data/access-tokens';
import { audit } from '../../data/audit';
import { findCodeForUpdate, markCodeUsed } from '../../data/authorization-codes';
import { revokeFamily } from '../../data/refresh-tokens';
import { findUserById } from '../../data/users';
import { OAuthError } from '../../errors';
import { checkClientGrant, requireClient } from '../checks/client';
import { requireParams } from '../checks/params';
import { checkCodeVerifier } from '../checks/pkce';
import type { ClientIdentity, OAuthContext, RequestMeta, TokenParams } from '../context';
import { issueTokens, type TokenResponse } from '../issue';
import { publishRevocations } from '../revoke';

const INVALID = 'The authorization code is invalid, expired or already used';

export async function authorizationCodeGrant(
  ctx: OAuthContext,
  params: TokenParams,
  client: ClientIdentity,
  meta: RequestMeta,
): Promise<TokenResponse> {
  requireClient(client, 'the authorization_code grant');
  checkClientGrant(client, 'authorization_code');
  const { code: presented } = requireParams(params, 'code');
  let revoked: RevokedAccessToken[] = [];

  // A replay commits the family revocation before answering, so the transaction must not throw.
  const outcome = await ctx.knex.transaction(async (trx): Promise<TokenResponse | OAuthError> => {
    const code = await findCodeForUpdate(trx, presented);
    if (!code) return new OAuthError('invalid_grant', INVALID);
    if (code.usedAt) {
      revoked = await revokeFamily(trx, code.familyId);
      await audit(trx, 'code.reused', {
        userId: code.userId,
        clientId: code.clientId,
        ip: meta.ip,
        detail: { family: code.familyId, revoked: revoked.length },
      });
      return new OAuthError('invalid_grant', INVALID);
    }
    if (code.expiresAt.getTime() <= Date.now()) return new OAuthError('invalid_grant', INVALID);
    if (code.clientId !== client.clientId)
      return new OAuthError('invalid_grant', 'The authorization code was issued to another client');
    const redirectUriOk =
      params.redirect_uri === undefined ? !code.redirectUriGiven : params.redirect_uri === code.redirectUri;
    if (!redirectUriOk) {
      return new OAuthError(
        'invalid_grant',
        'redirect_uri does not match the one of the authorization request',
      );
    }
    try {
      checkCodeVerifier(code.codeChallenge, params.code_verifier);
    } catch (error) {
      return error as OAuthError;
    }
    const user = await findUserById(trx, code.userId);
    if (!user || user.disabled) return new OAuthError('invalid_grant', INVALID);

    await markCodeUsed(trx, code.codeHash);
    const tokens = await issueTokens(ctx, trx, {
      user,
      clientId: client.clientId,
      scope: code.scope,
      familyId: code.familyId,
    });
    await audit(trx, 'token.issued', {
      userId: user.id,
      clientId: client.clientId,
      ip: meta.ip,
      detail: { grant: 'authorization_code' },
    });
    return tokens;
  });
  await publishRevocations(ctx, revoked);
  if (outcome instanceof OAuthError) {
    if (outcome.error === 'invalid_grant' && !revoked.length) {
      await audit(ctx.knex, 'token.refused', {
        clientId: client.clientId,
        ip: meta.ip,
        detail: { grant: 'authorization_code', reason: outcome.description },
      });
    }
    throw outcome;
  }
  return outcome;
}
