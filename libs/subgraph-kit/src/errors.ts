import { GraphQLError, type ExecutionResult } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Errors a client caused keep their message and code; anything else (a bug, a lost database)
 * becomes INTERNAL_SERVER_ERROR with a generic message, and the real error is logged with the
 * request id.
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
    if (original instanceof GraphQLError || error.extensions?.code) {
      out.push(withCode(error, 'BAD_USER_INPUT'));
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

export function errorResponse(
  result: ExecutionResult & { errors: readonly GraphQLError[] },
  log: FastifyBaseLogger,
) {
  const errors = formatErrors(result.errors, log).map((e) => e.toJSON());
  const validationOnly =
    !result.data && errors.every((e) => e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED');
  return { statusCode: validationOnly ? 400 : 200, response: { data: result.data ?? null, errors } };
}
