/**
 * Issues an access token (JWT, RS256) and a refresh token, and records both, for either grant.
 * Access token: header { alg: RS256, typ: JWT, provider: fleetgraph-sso, kid }; claims iss, iat,
 * jti (UUID v4), exp, scope, user { uid, email, full_name }, sub, aud, client_id when known
 * (spec 5.1). Response: exactly the fields of spec 5.4.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Knex } from '@fleetgraph/db';
import { recordAccessToken } from '../data/access-tokens';
import { insertRefreshToken } from '../data/refresh-tokens';
import type { User } from '../data/users';
import { SIGNING_ALG } from '../keys';
import type { OAuthContext } from './context';

export const TOKEN_PROVIDER = 'fleetgraph-sso';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  created_at: number;
}

export interface SignedAccessToken {
  accessToken: string;
  jti: string;
  /** Epoch seconds. */
  iat: number;
  /** Epoch seconds. */
  exp: number;
}

/** Identity and lifetime of an access token about to be signed (recorded before signing). */
export interface AccessTokenId {
  jti: string;
  iat: number;
  exp: number;
}

export function newAccessTokenId(ctx: OAuthContext): AccessTokenId {
  const iat = Math.floor(Date.now() / 1000);
  return { jti: randomUUID(), iat, exp: iat + ctx.config.accessTokenTtl };
}

/** Signs an access token (no database access: callers sign with no connection held). */
export async function signAccessToken(
  ctx: OAuthContext,
  grant: { user: Pick<User, 'id' | 'email' | 'fullName'>; clientId: string | null; scope: string },
  id: AccessTokenId = newAccessTokenId(ctx),
): Promise<SignedAccessToken> {
  const { config, keys } = ctx;
  const signingKey = keys.active();
  const { jti, iat, exp } = id;
  const accessToken = await new SignJWT({
    scope: grant.scope,
    user: { uid: grant.user.id, email: grant.user.email, full_name: grant.user.fullName },
    ...(grant.clientId ? { client_id: grant.clientId } : {}),
  })
    .setProtectedHeader({ alg: SIGNING_ALG, typ: 'JWT', provider: TOKEN_PROVIDER, kid: signingKey.kid })
    .setIssuer(config.issuer)
    .setSubject(grant.user.id)
    .setAudience(config.audience)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(signingKey.privateKey);
  return { accessToken, jti, iat, exp };
}

/** The token response of spec 5.4 (exactly these fields). */
export function tokenResponse(
  ctx: OAuthContext,
  signed: SignedAccessToken,
  refreshToken: string,
  scope: string,
): TokenResponse {
  return {
    access_token: signed.accessToken,
    token_type: 'bearer',
    expires_in: ctx.config.accessTokenTtl,
    refresh_token: refreshToken,
    scope,
    created_at: signed.iat,
  };
}

export async function issueTokens(
  ctx: OAuthContext,
  trx: Knex.Transaction,
  grant: {
    user: User;
    clientId: string | null;
    scope: string;
    familyId: string;
    /** The refresh token's scope when wider than this access token's (a narrowed refresh, RFC 6749 6). */
    refreshScope?: string;
  },
): Promise<TokenResponse> {
  const signed = await signAccessToken(ctx, grant);
  await recordAccessToken(trx, {
    jti: signed.jti,
    userId: grant.user.id,
    familyId: grant.familyId,
    clientId: grant.clientId,
    expiresAt: new Date(signed.exp * 1000),
  });
  const refreshToken = await insertRefreshToken(trx, {
    familyId: grant.familyId,
    userId: grant.user.id,
    clientId: grant.clientId,
    scope: grant.refreshScope ?? grant.scope,
    ttlSeconds: ctx.config.refreshTokenTtl,
  });
  return tokenResponse(ctx, signed, refreshToken, grant.scope);
}
