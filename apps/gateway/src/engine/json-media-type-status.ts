/**
 * GraphQL over HTTP, `application/json` responses: "the server SHOULD use the 200 status code for
 * every response to a well-formed GraphQL-over-HTTP request, independent of any GraphQL request
 * error" (a client of the older media type reads errors from the body, not the status). Apollo
 * Server answers 400 whatever the media type; for `application/json` answers, a 400 whose errors
 * are all GraphQL request errors (the document, its variables, the gateway's query limits) becomes
 * 200 here. HTTP-level refusals keep their status: 401 (no valid token), 413 (body too large),
 * 429 (rate limited), and a 400 for a request that is not GraphQL over HTTP at all (no query, a
 * body that is not JSON), which carries no such code. `application/graphql-response+json`
 * answers keep the spec's 4xx.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'QUERY_TOO_COMPLEX',
  'INTROSPECTION_DISABLED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_HASH_MISMATCH',
  'OPERATION_RESOLUTION_FAILURE',
]);

export async function jsonMediaTypeStatus(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode !== 400 || typeof payload !== 'string') return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  try {
    const body = JSON.parse(payload) as { errors?: { extensions?: { code?: unknown } }[] };
    const codes = body.errors?.map((error) => error.extensions?.code) ?? [];
    if (codes.length > 0 && codes.every((code) => REQUEST_ERROR_CODES.has(code as string))) reply.code(200);
  } catch {
    // Not JSON: leave the answer as it is.
  }
  return payload;
}
