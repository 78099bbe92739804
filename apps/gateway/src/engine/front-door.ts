/**
 * Cache hits answered at the door, before Apollo Server: most of a hit's gateway CPU would
 * otherwise be Apollo's request pipeline run again for a request whose outcome is already known.
 * The door sends what Apollo Server would have sent, so it runs only where the engine's version
 * gate says the port is current (`enabled`).
 *
 * Rules:
 * - the door knows only requests the full path has already served from the cache or stored in it:
 *   the plugin reports them (`remember`) with their entry key, so the door never parses, validates
 *   or plans anything. It keys them by the request's own text (query, operation name, variables);
 *   a request with `extensions` (persisted queries) or sent by GET is never taken here;
 * - everything that depends on the caller is checked again on every request: the access token is
 *   verified (signature, expiry, revocation), the login's cache settings are read, the entry is
 *   looked up under the caller's own scope key (its login, or its account and token scopes),
 *   with the scope's current epoch, and the per-user rate limit takes its token. What the full
 *   path checked once for the document (query limits, scopes of the fields, introspection,
 *   operation checks) holds for every caller whose scope key has the entry: only a request that
 *   passed them under that key could have stored it;
 * - anything else (an unknown request, no token or a bad one, caching off, a miss or an outdated
 *   entry, the store away, a refused rate limit, an Accept header the full path has not answered
 *   yet) goes on to the full path, which answers exactly as before, errors included;
 * - the answer is the full path's: status 200, the content type and cache-control the full path
 *   answered for that Accept header, `x-fleetgraph-cache: hit`, the stored body and a newline, and
 *   it is counted in the metrics (the request with its operation name, the cache hit);
 * - a new supergraph empties the door (`forget`): a document valid yesterday may not be today.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { bearerToken, type TokenVerifier } from '@fleetgraph/auth';
import { observationFor } from '../observability/plugin';
import type { RateLimiter } from '../rate-limit/limiter';
import { CACHE_HEADER, scopeKeyOf, type CacheLookupResult } from '../cache/plugin';
import { currentEntry, type CacheStore } from '../cache/store';

/** A request the full path served from the cache or stored. */
export interface RememberedRequest {
  query: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  /** The entry key the plugin computed for it (document, operation name, canonical variables). */
  key: string;
  /** The resolved operation's name (for the metrics). */
  operation: string | undefined;
}

export interface CacheFrontOptions {
  store: CacheStore;
  verifier: TokenVerifier;
  rateLimiter?: RateLimiter;
  onLookup?: (result: CacheLookupResult) => void;
  /** Called for each hit answered here (tests tell the front's hits from the full path's). */
  onHit?: () => void;
  /** Requests remembered (default 10,000; least recently used go). */
  maxRequests?: number;
  /** False when the engine's version gate is closed: every request takes the full path. */
  enabled?: boolean;
}

export interface CacheFront {
  remember(request: RememberedRequest): void;
  forget(): void;
  /** The route's onSend hook: learns which content type the full path answers for an Accept header. */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  /** The route's preHandler: answers a hit, or lets the request go on. */
  preHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
}

interface Known {
  key: string;
  operation: string | undefined;
}

interface GraphQLBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/** Longest query text remembered: larger documents take the full path every time. */
const MAX_QUERY_CHARS = 20_000;
const MAX_ACCEPT_VALUES = 64;
const NO_ACCEPT = '';

function requestText(query: string, operationName: unknown, variables: unknown): string {
  return `${typeof operationName === 'string' ? operationName : ''}\u0000${JSON.stringify(variables ?? null)}\u0000${query}`;
}

/** The remembered text of a POSTed body, or undefined when the door does not take it. */
function textOf(request: FastifyRequest): string | undefined {
  if (request.method !== 'POST') return undefined;
  const body = request.body as GraphQLBody | null | undefined;
  if (!body || typeof body !== 'object' || typeof body.query !== 'string') return undefined;
  if (body.extensions !== undefined || body.query.length > MAX_QUERY_CHARS) return undefined;
  return requestText(body.query, body.operationName, body.variables);
}

export function createCacheFront(options: CacheFrontOptions): CacheFront {
  const { store, verifier, rateLimiter } = options;
  const known = new LRUCache<string, Known>({ max: options.maxRequests ?? 10_000 });
  /** Per Accept header value: the headers the full path answered a cache hit or miss with. */
  const answerHeaders = new Map<string, Record<string, string>>();

  async function lookup(request: FastifyRequest, entry: Known): Promise<string | undefined> {
    let token: string;
    try {
      token = bearerToken(request.headers.authorization);
    } catch {
      return undefined;
    }
    const user = await verifier.verify(token).catch(() => undefined);
    if (!user) return undefined;
    const settings = await store.getSettings(user.jti);
    if (!settings || !store.available()) return undefined;
    const scopeKey = scopeKeyOf(user, settings);
    if (!scopeKey) return undefined;
    const body = (await currentEntry(store, scopeKey, entry.key))?.body;
    if (body === undefined) return undefined;
    if (rateLimiter && !(await rateLimiter.take(user.uid)).allowed) return undefined;
    if (settings.extendTtl) await store.touch(scopeKey, entry.key, settings.ttl * 1000);
    return body;
  }

  return {
    remember({ query, operationName, variables, key, operation }) {
      if (query.length <= MAX_QUERY_CHARS)
        known.set(requestText(query, operationName, variables), { key, operation });
    },
    async onSend(request, reply, payload) {
      const accept = request.headers.accept ?? NO_ACCEPT;
      if (reply.statusCode !== 200 || answerHeaders.has(accept) || answerHeaders.size >= MAX_ACCEPT_VALUES)
        return payload;
      // Only a single JSON result of the full path (a cache hit or miss) teaches the headers.
      const served = reply.getHeader(CACHE_HEADER);
      const type = reply.getHeader('content-type');
      const cacheControl = reply.getHeader('cache-control');
      if (
        (served === 'hit' || served === 'miss') &&
        typeof type === 'string' &&
        type.startsWith('application/')
      )
        answerHeaders.set(accept, {
          'content-type': type,
          ...(typeof cacheControl === 'string' ? { 'cache-control': cacheControl } : {}),
          [CACHE_HEADER]: 'hit',
        });
      return payload;
    },
    forget() {
      known.clear();
    },
    async preHandler(request, reply) {
      // Nothing remembered (no login has turned caching on): no text built on this hot path.
      if (known.size === 0 || options.enabled === false) return undefined;
      const text = textOf(request);
      const entry = text === undefined ? undefined : known.get(text);
      if (!entry) return undefined;
      const headers = answerHeaders.get(request.headers.accept ?? NO_ACCEPT);
      if (!headers) return undefined;
      const body = await lookup(request, entry);
      if (body === undefined) return undefined;
      options.onLookup?.('hit');
      options.onHit?.();
      observationFor(request).operation = entry.operation;
      return reply.code(200).headers(headers).send(`${body}\n`);
    },
  };
}
