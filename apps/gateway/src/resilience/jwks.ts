/**
 * The SSO's signing keys, kept through SSO outages. jose's remote key set refetches once its copy
 * is older than its maximum age and fails every verification while the SSO cannot be reached;
 * this one keeps verifying with the last keys it fetched: a stale copy is refreshed in the
 * background (errors logged, old keys kept), and only a token naming an unknown key (`kid`)
 * waits for a fetch (at most one per cooldown).
 */
import { createLocalJWKSet, errors as joseErrors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

export interface ResilientJwksOptions {
  /** Refresh a copy older than this (default 10 minutes). */
  maxAgeMs?: number;
  /** Least time between two fetches (default 30 s). */
  cooldownMs?: number;
  /** Fetch timeout (default 5 s). */
  timeoutMs?: number;
  onError?: (error: Error) => void;
  /** The clock, in epoch ms (default Date.now; tests pass their own). */
  now?: () => number;
}

/** The key resolver, and `loaded()`: resolves once keys are held (fetching them if none yet). */
export type ResilientJwks = JWTVerifyGetKey & { loaded(): Promise<void> };

export function createResilientJwks(url: string, options: ResilientJwksOptions = {}): ResilientJwks {
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const cooldownMs = options.cooldownMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const clock = options.now ?? Date.now;
  let local: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = 0;
  let attemptedAt = 0;
  let pending: Promise<void> | undefined;

  function refresh(): Promise<void> {
    pending ??= (async () => {
      attemptedAt = clock();
      try {
        const response = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) throw new Error(`JWKS answered HTTP ${response.status}`);
        const body = (await response.json()) as JSONWebKeySet;
        if (!body || !Array.isArray(body.keys)) throw new Error('JWKS answer has no keys array');
        local = createLocalJWKSet(body);
        fetchedAt = clock();
      } catch (error) {
        options.onError?.(error as Error);
        throw error;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  }

  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (!local) await refresh();
    const now = clock();
    if (now - fetchedAt > maxAgeMs && now - attemptedAt > cooldownMs) void refresh().catch(() => undefined);
    try {
      return await local!(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || clock() - attemptedAt < cooldownMs) throw error;
      // A key the SSO may have added since (rotation).
      try {
        await refresh();
      } catch {
        throw error;
      }
      return local!(header, token);
    }
  };
  return Object.assign(getKey, {
    async loaded() {
      if (!local) await refresh();
    },
  });
}
