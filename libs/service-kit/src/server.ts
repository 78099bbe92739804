/**
 * createServer: a Fastify instance with the platform's conventions.
 * - request id from `x-request-id` (or generated), echoed back, bound to the request's logger
 *   (`request.log`, and whatever the handler passes it to);
 * - `/healthz` (process alive) and `/readyz` (every readiness check passes; 200 `degraded` when a
 *   check passes with a note);
 * - an error handler that answers client mistakes with their status and a clear message,
 *   and hides internal errors behind a generic message logged with the request id.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { DestinationStream } from 'pino';
import {
  capConnectionsPerAddress,
  DEFAULT_HTTP_LIMITS,
  fastifyHttpOptions,
  type HttpLimits,
} from './http-limits';
import { loggerOptions } from './logger';
import { requestIdFrom } from './request-id';
import { flushTracing, initTracingFromEnv, tracer, tracingEnabled } from './tracing';

/**
 * Resolves when ready; resolves with a note when ready but degraded (still 200, status
 * `degraded`, the note under the check's name); throws when not ready (503).
 */
export type ReadinessCheck = () => Promise<void | string>;

export interface ServerOptions {
  name: string;
  logLevel?: string;
  bodyLimit?: number;
  /** Header, body, idle and keep-alive deadlines and the per-address connection cap (default DEFAULT_HTTP_LIMITS). */
  http?: HttpLimits;
  fastify?: Partial<FastifyServerOptions>;
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logStream?: DestinationStream;
  /**
   * Errors that mean a dependency is away (the database: libs/db isDatabaseUnavailable): answered
   * 503 `service_unavailable` with Retry-After (retryAfterSeconds, default 5) instead of 500.
   */
  isUnavailable?: (error: unknown) => boolean;
  retryAfterSeconds?: number;
  /**
   * How the answers the kit gives itself (no route, wrong method, unhandled error, dependency away)
   * are worded: `plain` (default) `{ error, message }`; `oauth` RFC 6749's `{ error,
   * error_description }`, with its `server_error` and `temporarily_unavailable` codes,
   * `Cache-Control: no-store` and `Pragma: no-cache` (the SSO).
   */
  errorStyle?: 'plain' | 'oauth';
}

declare module 'fastify' {
  interface FastifyInstance {
    addReadinessCheck(name: string, check: ReadinessCheck): void;
  }
}

/**
 * RFC 6749's code for one of the kit's own answers: its server_error and temporarily_unavailable,
 * invalid_request for a malformed request; no route and wrong method keep their names (the RFC has
 * none for them).
 */
function oauthCode(status: number, error: string): string {
  if (status === 503) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  return status === 404 || status === 405 ? error : 'invalid_request';
}

/** Sends one of the kit's own error answers in the service's `errorStyle`. */
function sendError(
  reply: FastifyReply,
  style: ServerOptions['errorStyle'],
  status: number,
  error: string,
  message: string,
  requestId?: string,
) {
  const id = requestId ? { requestId } : {};
  if (style !== 'oauth') return reply.code(status).send({ error, message, ...id });
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: oauthCode(status, error), error_description: message, ...id });
}

/** Methods routed on a path (HEAD with GET); OPTIONS is left out, since CORS routes it everywhere. */
const ROUTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
function methodsServing(app: FastifyInstance, path: string): string[] {
  const methods: string[] = ROUTED_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
  return methods.includes('GET') ? ['GET', 'HEAD', ...methods.slice(1)] : methods;
}

/**
 * The kit's answer to an error, thrown by a handler or raised by Fastify itself (a body it cannot
 * read, a path it cannot route): a client error keeps its status and message; a dependency away
 * is 503 with Retry-After; anything else is a 500 that hides its detail behind the request id.
 */
function answerError(
  options: ServerOptions,
  error: Error & { statusCode?: number; code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (status === 500 && options.isUnavailable?.(error)) {
    request.log.warn({ err: error }, 'dependency unavailable');
    reply.header('retry-after', String(options.retryAfterSeconds ?? 5));
    const message = 'Temporarily unavailable; retry later';
    return sendError(reply, options.errorStyle, 503, 'service_unavailable', message, request.id);
  }
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return sendError(
      reply,
      options.errorStyle,
      status,
      'internal_error',
      'Internal server error',
      request.id,
    );
  }
  return sendError(reply, options.errorStyle, status, error.code ?? 'bad_request', clip(error.message));
}

export function createServer(options: ServerOptions): FastifyInstance {
  initTracingFromEnv(options.name);
  const httpLimits = options.http ?? DEFAULT_HTTP_LIMITS;
  const app = Fastify({
    logger: {
      ...loggerOptions(options.name, options.logLevel ?? 'info'),
      // When tracing, a line written while a request is served carries its trace id (also through
      // the root logger, by a library that has no request logger).
      mixin: traceMixin,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    bodyLimit: options.bodyLimit ?? 1_048_576,
    ...fastifyHttpOptions(httpLimits),
    // A path Fastify cannot route (a malformed percent-escape, a parameter past maxParamLength)
    // is answered in the kit's shape and the service's errorStyle, like any other client mistake,
    // instead of Fastify's own JSON.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      answerError(options, error, request, reply),
    // One line per request only at debug level; the request id is logged as `requestId`.
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: options.logLevel !== 'debug' && options.logLevel !== 'trace',
    }),
    ...options.fastify,
  });

  capConnectionsPerAddress(app.server, httpLimits.maxConnectionsPerAddress);

  const checks = new Map<string, ReadinessCheck>();
  app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
    checks.set(name, check);
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (tracingEnabled()) startRequestSpan(request, options.name);
    done();
  });
  // When tracing, after the body is parsed (stream events lose the async context), so the
  // handler and all it awaits run inside the request's span. The request id needs no async
  // context: it is bound to request.log, which code serving a request logs through. (An
  // AsyncLocalStorage for it makes every promise of the process run hooks on Node 20, a large
  // share of a small request's CPU.)
  app.addHook('preHandler', (request, _reply, done) => {
    const span = requestSpans.get(request);
    if (span) context.with(trace.setSpan(context.active(), span), done);
    else done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = requestSpans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      requestSpans.delete(request);
    }
    done();
  });
  app.addHook('onClose', async () => flushTracing());

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok', service: options.name }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const results: Record<string, string> = {};
    let ready = true;
    let degraded = false;
    await Promise.all(
      [...checks].map(async ([name, check]) => {
        try {
          const note = await check();
          if (note) degraded = true;
          results[name] = note || 'ok';
        } catch (error) {
          ready = false;
          results[name] = (error as Error).message || 'failed';
        }
      }),
    );
    const status = !ready ? 'not ready' : degraded ? 'degraded' : 'ready';
    return reply.code(ready ? 200 : 503).send({ status, service: options.name, checks: results });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methodsServing(app, path);
    // A route of this very method that found nothing to serve (reply.callNotFound) stays a 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const message = `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`;
      reply.header('allow', allowed.join(', '));
      return sendError(reply, options.errorStyle, 405, 'method_not_allowed', clip(message));
    }
    return sendError(
      reply,
      options.errorStyle,
      404,
      'not_found',
      clip(`No route for ${request.method} ${path}`),
    );
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) =>
    answerError(options, error, request, reply),
  );

  return app;
}

/** Longest message of a client error: some quote the request (a path of 8 KB, a parameter) whole. */
export const MAX_ERROR_MESSAGE = 200;
const clip = (message: string) =>
  message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE)}...` : message;

const requestSpans = new WeakMap<FastifyRequest, Span>();

/** One SERVER span per request, child of the caller's span when it sent a W3C traceparent. */
function startRequestSpan(request: FastifyRequest, service: string): void {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const route = request.routeOptions.url ?? request.url.split('?')[0];
  const span = tracer.startSpan(
    `${request.method} ${route}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'fleetgraph.request_id': request.id,
        // The one-process start serves every service under one tracer provider.
        'fleetgraph.service': service,
      },
    },
    parent,
  );
  requestSpans.set(request, span);
}

function traceMixin(): Record<string, string> {
  if (!tracingEnabled()) return {};
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext ? { traceId: spanContext.traceId } : {};
}
