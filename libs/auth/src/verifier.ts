/**
 * Access-token verification, the same in the gateway and in every subgraph.
 * Rules: RS256 only (no `none`, no HMAC: a public key can never act as a shared secret); the issuer
 * and audience must match; `exp` and `iat` are required; the key comes from the SSO's JWKS, cached,
 * and refetched when a token names an unknown `kid`. A verified token is cached until it expires,
 * so the signature check runs once per token, not once per request.
 */
import {
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { LRUCache } from 'lru-cache';
import { AuthError } from './errors';
import type { UserContext } from './user-context';
import { asViewer } from './viewer';

export interface VerifierOptions {
  issuer: string;
  audience?: string;
  /** The SSO's JWKS address, or a key resolver (tests pass a local key set). */
  jwks: string | JWTVerifyGetKey;
  /** Verified tokens kept in memory (default 10 000). */
  cacheSize?: number;
  /** Allowed clock skew in seconds (default 30). */
  clockTolerance?: number;
  /** Returns true when a token id was revoked (shared revocation list). */
  isRevoked?: (jti: string) => Promise<boolean> | boolean;
  /** The clock, in epoch ms (default Date.now; tests pass their own to expire tokens). */
  now?: () => number;
}

export interface TokenVerifier {
  verify(token: string): Promise<UserContext>;
}

interface SsoClaims extends JWTPayload {
  scope?: string;
  client_id?: string;
  user?: { uid?: string; email?: string; full_name?: string };
}

export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  const keys =
    typeof options.jwks === 'string'
      ? createRemoteJWKSet(new URL(options.jwks), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })
      : options.jwks;
  const cache = new LRUCache<string, UserContext>({ max: options.cacheSize ?? 10_000 });
  const clockTolerance = options.clockTolerance ?? 30;
  const clock = options.now ?? Date.now;

  async function verifySignature(token: string): Promise<UserContext> {
    let payload: SsoClaims;
    try {
      ({ payload } = await jwtVerify<SsoClaims>(token, keys, {
        algorithms: ['RS256'],
        issuer: options.issuer,
        ...(options.audience ? { audience: options.audience } : {}),
        requiredClaims: ['exp', 'iat', 'jti'],
        clockTolerance,
        currentDate: new Date(clock()),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired)
        throw new AuthError('expired_token', 'The access token has expired');
      throw new AuthError('invalid_token', 'The access token is not valid');
    }
    const user = payload.user;
    const uid = user?.uid ?? payload.sub;
    if (!uid || !user?.email || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
      throw new AuthError('invalid_token', 'The access token lacks its user claims');
    }
    return {
      // The verified token's account: the caller every visibility rule takes.
      uid: asViewer(uid),
      email: user.email,
      fullName: user.full_name ?? '',
      scopes: (payload.scope ?? '').split(' ').filter(Boolean),
      jti: payload.jti,
      exp: payload.exp,
      ...(payload.client_id ? { clientId: payload.client_id } : {}),
    };
  }

  return {
    async verify(token) {
      let context = cache.get(token);
      const now = clock() / 1000;
      if (context && context.exp + clockTolerance <= now) {
        cache.delete(token);
        context = undefined;
      }
      if (!context) {
        context = await verifySignature(token);
        cache.set(token, context, { ttl: Math.max(1, (context.exp + clockTolerance - now) * 1000) });
      }
      if (options.isRevoked && (await options.isRevoked(context.jti))) {
        throw new AuthError('revoked_token', 'The access token has been revoked');
      }
      return context;
    },
  };
}
