/**
 * Identifies a presented token for revocation and introspection (RFC 7009 2.1, RFC 7662 2.1).
 * - token_type_hint (access_token | refresh_token) only decides which kind is looked up first;
 *   an unknown hint is ignored (RFC 7009 allows unsupported_token_type, but a lookup of both kinds
 *   answers correctly anyway);
 * - a refresh token is found by its hash; an access token must be a JWT verifying against this
 *   SSO's keys, issuer and audience (expiry checked by the caller) and be recorded in
 *   sso.access_tokens.
 */
import { jwtVerify, type JWTPayload } from 'jose';
import { findAccessToken } from '../data/access-tokens';
import { findRefreshToken, type RefreshTokenRow } from '../data/refresh-tokens';
import { SIGNING_ALG } from '../keys';
import type { OAuthContext } from './context';

export interface AccessTokenClaims extends JWTPayload {
  jti: string;
  exp: number;
  iat: number;
  scope?: string;
  client_id?: string;
  user?: { uid: string; email: string; full_name: string };
}

export type FoundToken =
  | { kind: 'refresh_token'; row: RefreshTokenRow }
  | {
      kind: 'access_token';
      claims: AccessTokenClaims;
      clientId: string | null;
      revoked: boolean;
      expired: boolean;
    };

async function findAccess(ctx: OAuthContext, token: string): Promise<FoundToken | null> {
  if (token.split('.').length !== 3) return null;
  let claims: AccessTokenClaims;
  try {
    // Expiry is judged by the caller: an expired token is inactive, not unknown.
    ({ payload: claims } = await jwtVerify<AccessTokenClaims>(token, ctx.keys.resolver, {
      algorithms: [SIGNING_ALG],
      issuer: ctx.config.issuer,
      audience: ctx.config.audience,
      requiredClaims: ['jti', 'exp', 'iat'],
      currentDate: new Date(0),
    }));
  } catch {
    return null;
  }
  const record = await findAccessToken(ctx.knex, claims.jti);
  if (!record) return null;
  return {
    kind: 'access_token',
    claims,
    clientId: record.clientId,
    revoked: record.revokedAt !== null,
    expired: claims.exp <= Date.now() / 1000,
  };
}

async function findRefresh(ctx: OAuthContext, token: string): Promise<FoundToken | null> {
  const row = await findRefreshToken(ctx.knex, token);
  return row ? { kind: 'refresh_token', row } : null;
}

export async function findToken(
  ctx: OAuthContext,
  token: string,
  hint: string | undefined,
): Promise<FoundToken | null> {
  const order = hint === 'refresh_token' ? [findRefresh, findAccess] : [findAccess, findRefresh];
  for (const find of order) {
    const found = await find(ctx, token);
    if (found) return found;
  }
  return null;
}
