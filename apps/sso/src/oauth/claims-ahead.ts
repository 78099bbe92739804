/**
 * The claims of the access token a refresh token will mint, remembered by the process that issued
 * that refresh token, so a refresh signs its access token WHILE its rotation commits: the RS256
 * signature (a few ms on a busy machine) and the database round trip overlap instead of adding up.
 * Rules:
 * - a guess, never an authority: the answer is sent only after the rotation committed, and it
 *   carries the token signed ahead only when the committed claims (user id, email, full name,
 *   scope, client) equal the guess; otherwise the access token is signed again from the committed
 *   claims (a renamed user, a changed email);
 * - an entry is taken (deleted) when its refresh token is presented: refresh tokens are single-use;
 * - a token signed ahead for a refresh that then fails (reuse, expiry, a disabled user, another
 *   client) is dropped unseen; its jti was never recorded;
 * - bounded (LRU, `max` entries, one per live login of this process); a miss (another instance
 *   issued the token, a restart, an eviction) costs the overlap only.
 */
import { LRUCache } from 'lru-cache';

export interface AccessClaims {
  userId: string;
  email: string;
  fullName: string;
  scope: string;
  clientId: string | null;
}

export interface ClaimsAhead {
  /** What the refresh token with this hash will mint, if this process knows (and forgets it). */
  take(tokenHash: string): AccessClaims | undefined;
  remember(tokenHash: string, claims: AccessClaims): void;
}

export const CLAIMS_AHEAD_MAX = 100_000;

export function createClaimsAhead(max = CLAIMS_AHEAD_MAX): ClaimsAhead {
  const entries = new LRUCache<string, AccessClaims>({ max });
  return {
    take(tokenHash) {
      const claims = entries.get(tokenHash);
      if (claims) entries.delete(tokenHash);
      return claims;
    },
    remember(tokenHash, claims) {
      entries.set(tokenHash, claims);
    },
  };
}

export function sameClaims(a: AccessClaims, b: AccessClaims): boolean {
  return (
    a.userId === b.userId &&
    a.email === b.email &&
    a.fullName === b.fullName &&
    a.scope === b.scope &&
    a.clientId === b.clientId
  );
}
