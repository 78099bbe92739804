import { GraphQLError, type ExecutionResult } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, isRequestAbandoned } from '@fleetgraph/db';

/** Paths of failed fields a log line names at most (a page of 200 rows can fail 200 times). */
const LOGGED_PATHS = 5;

/** What went wrong in one request, logged once: one line per failed request, never one per field. */
class Failures {
  private first: { err: Error; path: GraphQLError['path'] } | undefined;
  private readonly paths: string[] = [];
  private count = 0;

  constructor(private readonly kind: 'abandoned' | 'database unavailable' | 'resolver failed') {}

  add(err: Error, path: GraphQLError['path']): void {
    this.count += 1;
    this.first ??= { err, path };
    if (this.paths.length < LOGGED_PATHS && path) this.paths.push(path.join('.'));
  }

  log(log: FastifyBaseLogger): void {
    if (!this.first) return;
    const line = { err: this.first.err, fields: this.count, paths: this.paths };
    if (this.kind === 'abandoned')
      log.info({ fields: this.count }, 'request abandoned by its caller: its work stopped');
    else if (this.kind === 'database unavailable') log.warn(line, 'database unavailable');
    else log.error(line, 'resolver failed');
  }
}

/**
 * Errors a client caused keep their message and code (a request refused before GraphQL, such as a
 * body over the size limit, is PAYLOAD_TOO_LARGE, HTTP 413, or BAD_REQUEST, HTTP 400); anything
 * else (a bug, a lost database) becomes INTERNAL_SERVER_ERROR with a generic message, and the real
 * error is logged with the request id, once per request whatever the number of fields it failed.
 * A request its caller abandoned (the gateway gave up, its client went away) stopped its work on
 * purpose: that is logged once, at info.
 */
export function formatErrors(errors: readonly GraphQLError[], log: FastifyBaseLogger): GraphQLError[] {
  const out: GraphQLError[] = [];
  const abandoned = new Failures('abandoned');
  const unavailable = new Failures('database unavailable');
  const failed = new Failures('resolver failed');
  for (const error of errors) {
    const original = error.originalError as (Error & { errors?: unknown[]; statusCode?: number }) | undefined;
    if (original?.errors && Array.isArray(original.errors)) {
      for (const inner of original.errors) {
        const graphQLError =
          inner instanceof GraphQLError ? inner : new GraphQLError(String((inner as Error).message));
        out.push(withCode(graphQLError, 'GRAPHQL_VALIDATION_FAILED'));
      }
      continue;
    }
    if (!original) {
      out.push(withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
      continue;
    }
    const status = original.statusCode;
    if (!error.path && typeof status === 'number' && status >= 400 && status < 500) {
      // The request itself was refused before GraphQL (Fastify: body over the size limit, body
      // that is not JSON...): a client error with its own message, never an internal one.
      out.push(
        new GraphQLError(original.message, {
          extensions: { code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST' },
        }),
      );
      continue;
    }
    if (original instanceof GraphQLError || error.extensions?.code) {
      out.push(withCode(error, 'BAD_USER_INPUT'));
      continue;
    }
    if (isRequestAbandoned(original)) {
      abandoned.add(original, error.path);
      out.push(
        new GraphQLError('The request was abandoned by its caller', {
          ...(error.path ? { path: error.path } : {}),
          extensions: { code: 'REQUEST_ABANDONED' },
        }),
      );
      continue;
    }
    if (isDatabaseUnavailable(original)) {
      unavailable.add(original, error.path);
      out.push(
        new GraphQLError('The service is temporarily unavailable; retry later', {
          ...(error.path ? { path: error.path } : {}),
          extensions: { code: 'SERVICE_UNAVAILABLE', retryable: true },
        }),
      );
      continue;
    }
    failed.add(original, error.path);
    out.push(
      new GraphQLError('Internal server error', {
        ...(error.path ? { path: error.path } : {}),
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      }),
    );
  }
  for (const failures of [failed, unavailable, abandoned]) failures.log(log);
  return out;
}

function withCode(error: GraphQLError, fallback: string): GraphQLError {
  if (error.extensions?.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, code: fallback },
  });
}

/** HTTP status of a request refused before GraphQL, by code. */
const REQUEST_STATUS: Record<string, number | undefined> = {
  PAYLOAD_TOO_LARGE: 413,
  BAD_REQUEST: 400,
  QUERY_TOO_COMPLEX: 400,
  INSUFFICIENT_SCOPE: 403,
};

export function errorResponse(
  result: ExecutionResult & { errors: readonly GraphQLError[] },
  log: FastifyBaseLogger,
) {
  // `http` is a server hint (the status), not for clients.
  const errors = formatErrors(result.errors, log).map((e) => {
    const json = e.toJSON();
    if (json.extensions?.http === undefined) return json;
    const { http: _http, ...extensions } = json.extensions;
    return { ...json, extensions };
  });
  const validationOnly =
    !result.data && errors.every((e) => e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED');
  const refused =
    !result.data && errors.length === 1 ? REQUEST_STATUS[String(errors[0]!.extensions?.code)] : undefined;
  // Nothing served because the database is away: 503, so clients and the gateway may retry.
  const unavailable =
    !hasData(result.data) &&
    errors.length > 0 &&
    errors.every((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE');
  return {
    statusCode: refused ?? (validationOnly ? 400 : unavailable ? 503 : 200),
    response: { data: result.data ?? null, errors },
  };
}

/** True when some field of the answer holds a value. */
function hasData(data: ExecutionResult['data']): boolean {
  return !!data && Object.values(data).some((value) => value !== null);
}

export const SUBGRAPH_RETRY_AFTER_SECONDS = DATABASE_RETRY_AFTER_SECONDS;
