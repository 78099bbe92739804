/**
 * Cross-origin access for browser clients (CORS_ORIGINS; off by default: same origin only).
 * Only the listed origins (or any, with `*`) get Access-Control-Allow-Origin; a preflight is
 * answered in the onRequest hook, before authentication and rate limiting, since a browser sends
 * it without the Authorization header. Tokens travel in Authorization, never in cookies, so
 * credentials mode stays off and `*` cannot leak a session.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { GRAPHQL_METHODS } from './refused-requests';

/** Request headers a browser client may send: the token, JSON, Apollo's CSRF header, tracing. */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'x-request-id',
  'traceparent',
  'tracestate',
];
/** Response headers a browser client may read besides the simple ones. */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'www-authenticate'];
/** How long a browser may reuse a preflight answer (seconds). */
export const CORS_MAX_AGE_SECONDS = 600;

export async function registerCors(app: FastifyInstance, origins: string[]): Promise<void> {
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : origins,
    methods: [...GRAPHQL_METHODS],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE_SECONDS,
    credentials: false,
  });
}
