import { GraphQLError, type ExecutionResult } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@fleetgraph/db';

/**
 * Errors a client caused keep their message and code (a request refused before GraphQL, such as a
 * body over the size limit, is PAYLOAD_TOO_LARGE, HTTP 413, or BAD_REQUEST, HTTP 400); anything
 * else (a bug, a lost database) becomes INTERNAL_SERVER_ERROR with a generic message, and the real
 * error is logged with the request id.
 */
export function formatErrors(errors: readonly GraphQLError[], log: FastifyBaseLogger): GraphQLError[] {
  const out: GraphQLError[] = [];
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
    if (isDatabaseUnavailable(original)) {
      log.warn({ err: original, path: error.path }, 'database unavailable');
      out.push(
        new GraphQLError('The service is temporarily unavailable; retry later', {
          ...(error.path ? { path: error.path } : {}),
          extensions: { code: 'SERVICE_UNAVAILABLE', retryable: true },
        }),
      );
      continue;
    }
    log.error({ err: original, path: error.path }, 'resolver failed');
    out.push(
      new GraphQLError('Internal server error', {
        ...(error.path ? { path: error.path } : {}),
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      }),
    );
  }
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
