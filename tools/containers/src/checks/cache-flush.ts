/**
 * A cache flush applied by every gateway. One login turns its cache on; two queries are each
 * answered from the cache by both gateways (each gateway's own address, past the balancer: the
 * `x-fleetgraph-cache` header says `hit`), so both gateways hold both entries, in Redis and in
 * their near cache. The login's cache is flushed through gateway-1; then each gateway is asked
 * one of the two queries. A `hit` there could only be the flushed entry, as nothing stored the
 * query again after the flush: the first answer of each must be a `miss`. A gateway that still
 * served the old entry is asked again until it stops, and the time is reported (docs/api.md: a
 * near-cache invalidation travels on its own connection and may land a moment after the flush's
 * answer on a loaded machine; it must land within a second).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { GATEWAY_PORT, instanceName } from '../compose-file';
import { replicaUrl, type Outcome } from './support';

const NAME = 'cache flush applied by every gateway';
const QUERIES = ['{ account { id } }', '{ devices(pageSize: 3) { list { id } } }'] as const;
/** How long the old entry may still be served by the gateway the flush did not go through. */
const STALE_LIMIT_MS = 1000;

async function ask(base: string, token: string, query: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
  if (response.status !== 200 || body.errors)
    throw new Error(`${base}: HTTP ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  return response.headers.get('x-fleetgraph-cache') ?? 'none';
}

/** Asks until the answer is not a hit; the stale hits seen and when the first miss came. */
async function untilMiss(base: string, token: string, query: string, flushedAt: number) {
  let stale = 0;
  for (;;) {
    const result = await ask(base, token, query);
    if (result !== 'hit') return { stale, result, afterMs: Date.now() - flushedAt };
    stale++;
    if (Date.now() - flushedAt > 10_000) return { stale, result, afterMs: Date.now() - flushedAt };
    await delay(50);
  }
}

export async function checkCacheFlush(token: string): Promise<Outcome> {
  const gateways = [instanceName('gateway', 1), instanceName('gateway', 2)] as const;
  const bases = gateways.map((g) => replicaUrl(g, GATEWAY_PORT));
  const [first, second] = bases as [string, string];
  await ask(first, token, '{ cache(ttl: 300) { ttl } }');
  // Each query stored once, then a hit at each gateway (asked twice: Redis, then process memory).
  const before: string[] = [];
  for (const query of QUERIES) {
    await ask(first, token, query);
    for (const [i, base] of bases.entries())
      for (let n = 0; n < 2; n++)
        before.push(`${gateways[i]} ${n ? 'again' : 'first'}: ${await ask(base, token, query)}`);
  }
  const cachedEverywhere = before.every((line) => line.endsWith(': hit'));
  await ask(first, token, '{ cache(flush: true, saveSettings: false) { flush } }');
  const flushedAt = Date.now();
  const [atSecond, atFirst] = await Promise.all([
    untilMiss(second, token, QUERIES[0], flushedAt),
    untilMiss(first, token, QUERIES[1], flushedAt),
  ]);
  const ok =
    cachedEverywhere &&
    atFirst.result === 'miss' &&
    atFirst.stale === 0 &&
    atSecond.result === 'miss' &&
    (atSecond.stale === 0 || atSecond.afterMs <= STALE_LIMIT_MS);
  const after = (name: string, a: typeof atFirst) =>
    `${name}: ${a.result}${a.stale ? ` after ${a.stale} answer(s) from the old entry, ${a.afterMs} ms after the flush` : ' at once'}`;
  return {
    name: NAME,
    ok,
    detail:
      `before the flush, both queries were hits at both gateways: ${cachedEverywhere ? 'yes' : `no (${before.join(', ')})`}; ` +
      `flushed through ${gateways[0]}; then ${after(gateways[1], atSecond)}; ${after(gateways[0], atFirst)}`,
  };
}
