/**
 * createServer: a Fastify instance with the platform's conventions.
 * - request id from `x-request-id` (or generated), echoed back, in every log line;
 * - `/healthz` (process alive) and `/readyz` (every readiness check passes);
 * - an error handler that answers client mistakes with their status and a clear message,
 *   and hides internal errors behind a generic message logged with the request id.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loggerOptions } from './logger';
import { requestIdFrom } from './request-id';

export type ReadinessCheck = () => Promise<void>;

export interface ServerOptions {
  name: string;
  logLevel?: string;
  bodyLimit?: number;
  fastify?: Partial<FastifyServerOptions>;
}

declare module 'fastify' {
  interface FastifyInstance {
    addReadinessCheck(name: string, check: ReadinessCheck): void;
  }
}

export function createServer(options: ServerOptions): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(options.name, options.logLevel ?? 'info'),
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    bodyLimit: options.bodyLimit ?? 1_048_576,
    // One line per request only at debug level; the request id is logged as `requestId`.
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: options.logLevel !== 'debug' && options.logLevel !== 'trace',
    }),
    ...options.fastify,
  });

  const checks = new Map<string, ReadinessCheck>();
  app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
    checks.set(name, check);
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok', service: options.name }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      [...checks].map(async ([name, check]) => {
        try {
          await check();
          results[name] = 'ok';
        } catch (error) {
          ready = false;
          results[name] = (error as Error).message || 'failed';
        }
      }),
    );
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not ready', service: options.name, checks: results });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send({ error: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(status)
        .send({ error: 'internal_error', message: 'Internal server error', requestId: request.id });
    }
    return reply.code(status).send({ error: error.code ?? 'bad_request', message: error.message });
  });

  return app;
}
