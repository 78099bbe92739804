/**
 * Readiness of the subgraphs: each one's /readyz (next to its /graphql) answered 2xx within a short
 * timeout. Results are cached for a few seconds so a busy probe does not multiply subgraph calls;
 * concurrent probes share one round.
 */
import type { SubgraphEndpoint } from './supergraph';

export interface SubgraphReadinessOptions {
  subgraphs: () => SubgraphEndpoint[];
  /** Per-probe timeout (default 1000 ms). */
  timeoutMs?: number;
  /** How long a round of results is reused (default 2000 ms). */
  cacheMs?: number;
  /**
   * `any` (default): ready while at least one subgraph answers, the others named as degraded (the
   * gateway answers their fields with errors and serves the rest, and every gateway instance sees
   * the same outage, so taking instances out of the load balancer would only turn a partial
   * outage into a total one). `all`: not ready as soon as one subgraph does not answer.
   */
  requires?: 'any' | 'all';
  /** The clock, in epoch ms (default Date.now; tests pass their own). */
  now?: () => number;
}

/** http://host/graphql -> http://host/readyz; http://host/api/graphql -> http://host/api/readyz */
export function readinessUrl(graphqlUrl: string): string {
  return new URL('readyz', graphqlUrl).toString();
}

async function probe(url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await fetch(readinessUrl(url), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable';
  }
}

/**
 * A readiness check listing every failing subgraph as "<name> (<why>)": it throws "not ready: ..."
 * when the policy says not ready, else answers "degraded: ..." (or nothing when all answer).
 */
export function subgraphReadiness(options: SubgraphReadinessOptions): () => Promise<string | void> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const cacheMs = options.cacheMs ?? 2000;
  const now = options.now ?? Date.now;
  let last: { at: number; failures: string[] } | undefined;
  let pending: Promise<string[]> | undefined;

  async function round(): Promise<string[]> {
    const results = await Promise.all(
      options.subgraphs().map(async ({ name, url }) => {
        const problem = await probe(url, timeoutMs);
        return problem ? `${name} (${problem})` : undefined;
      }),
    );
    return results.filter((r): r is string => r !== undefined);
  }

  return async () => {
    let failures: string[];
    if (last && now() - last.at < cacheMs) failures = last.failures;
    else {
      pending ??= round().finally(() => {
        pending = undefined;
      });
      failures = await pending;
      last = { at: now(), failures };
    }
    if (failures.length === 0) return;
    const all = options.subgraphs().length;
    if ((options.requires ?? 'any') === 'all' || failures.length >= all)
      throw new Error(`not ready: ${failures.join(', ')}`);
    return `degraded: ${failures.join(', ')}`;
  };
}
