import { GraphQLError, type GraphQLFormattedError } from 'graphql';

function clientStatus(error: unknown): boolean {
  const status = (error instanceof GraphQLError ? error.extensions?.http : undefined) as
    { status?: number } | undefined;
  return status?.status !== undefined && status.status >= 400 && status.status < 500;
}

/**
 * Client mistakes keep their message and code; anything unexpected is reported as
 * INTERNAL_SERVER_ERROR with a generic message (details stay in the logs).
 */
export function formatError(formatted: GraphQLFormattedError, error?: unknown): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  // Apollo Server's own request refusals (an unsupported persisted query version...) carry an
  // HTTP 4xx but no code: they are the client's mistake, not an internal error.
  if ((code === undefined || code === 'INTERNAL_SERVER_ERROR') && clientStatus(error)) {
    return { message: formatted.message, extensions: { code: 'BAD_REQUEST' } };
  }
  if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
    return {
      message: 'Internal server error',
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  }
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
  return { ...formatted, extensions };
}
