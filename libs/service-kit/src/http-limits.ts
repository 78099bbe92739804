/**
 * How long an HTTP client may hold a connection without doing its part, and how many connections
 * one address may hold, for every server of the platform (gateway, explorer, SSO, subgraphs):
 * - headers: the whole request head within `headersMs` (a client sending one byte every few seconds
 *   is answered 408 and closed);
 * - request: the whole request, body included, within `requestMs`;
 * - idle: a connection silent both ways for `idleMs` is closed (an answer being computed is not
 *   silence on the client's part: the timer runs on socket activity, and the service answers
 *   within its own bounds first);
 * - keep-alive: an idle kept-alive connection is closed after `keepAliveMs`;
 * - at most `maxConnectionsPerAddress` open connections from one address; more are closed as soon
 *   as they open (0: no cap; behind a load balancer or proxy, every client shares its address).
 * Node checks the header and request deadlines every `checkEveryMs`.
 */
import type { Server, Socket } from 'node:net';
import { envField } from './env';

export interface HttpLimits {
  headersMs: number;
  requestMs: number;
  idleMs: number;
  keepAliveMs: number;
  maxConnectionsPerAddress: number;
  checkEveryMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 60_000,
  keepAliveMs: 72_000,
  maxConnectionsPerAddress: 256,
  checkEveryMs: 1_000,
};

/** Fields to spread into a service's environment schema. */
export const HTTP_LIMITS_ENV = {
  HTTP_HEADERS_TIMEOUT_MS: envField.int(DEFAULT_HTTP_LIMITS.headersMs, 100),
  HTTP_REQUEST_TIMEOUT_MS: envField.int(DEFAULT_HTTP_LIMITS.requestMs, 100),
  HTTP_IDLE_TIMEOUT_MS: envField.int(DEFAULT_HTTP_LIMITS.idleMs, 100),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: envField.int(DEFAULT_HTTP_LIMITS.keepAliveMs, 100),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: envField.int(DEFAULT_HTTP_LIMITS.maxConnectionsPerAddress, 0),
};

/** The limits from values parsed with HTTP_LIMITS_ENV; the request deadline is never under the headers'. */
export function httpLimitsOf(parsed: Record<string, unknown>): HttpLimits {
  const headersMs = parsed.HTTP_HEADERS_TIMEOUT_MS as number;
  return {
    headersMs,
    requestMs: Math.max(headersMs, parsed.HTTP_REQUEST_TIMEOUT_MS as number),
    idleMs: parsed.HTTP_IDLE_TIMEOUT_MS as number,
    keepAliveMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS as number,
    maxConnectionsPerAddress: parsed.HTTP_MAX_CONNECTIONS_PER_ADDRESS as number,
    checkEveryMs: Math.min(DEFAULT_HTTP_LIMITS.checkEveryMs, headersMs),
  };
}

/** Fastify's server options for these limits. */
export function fastifyHttpOptions(limits: HttpLimits) {
  return {
    requestTimeout: limits.requestMs,
    keepAliveTimeout: limits.keepAliveMs,
    connectionTimeout: limits.idleMs,
    http: { headersTimeout: limits.headersMs, connectionsCheckingInterval: limits.checkEveryMs },
  };
}

/** Closes each connection past `max` open ones from its address, as soon as it opens. */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
