/**
 * A throwaway token issuer for app-level tests: an RSA key, its JWKS, and a function minting
 * access tokens shaped exactly like the SSO's (spec 5.1). Cross-service tests use the real SSO.
 */
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export interface TestUser {
  uid: string;
  email: string;
  fullName?: string;
}

export interface TestIssuer {
  issuer: string;
  audience: string;
  jwks: ReturnType<typeof createLocalJWKSet>;
  publicJwk: JWK;
  token(user: TestUser, options?: { expiresIn?: number; issuer?: string; scope?: string }): Promise<string>;
}

export async function createTestIssuer(
  issuer = 'http://sso.test',
  audience = 'fleetgraph',
): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  return {
    issuer,
    audience,
    publicJwk,
    jwks: createLocalJWKSet({ keys: [publicJwk] }),
    async token(user, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        scope: options.scope ?? 'public',
        user: { uid: user.uid, email: user.email, full_name: user.fullName ?? user.email },
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'test-key', provider: 'fleetgraph-test' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(audience)
        .setSubject(user.uid)
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresIn ?? 3600))
        .sign(privateKey);
    },
  };
}
