/**
 * Requests refused before GraphQL sees them, answered as GraphQL errors with a code (never
 * Fastify's own `{ error: 'FST_ERR_...' }` shape, never a 500):
 * - a body over the limit: 413 PAYLOAD_TOO_LARGE, with the limit and the size sent;
 * - a body that is not JSON, or empty: 400 BAD_REQUEST (JSON holding a `__proto__` or
 *   `constructor.prototype` key is refused too, and the message says so);
 * - a media type other than JSON, or a compressed body (Content-Encoding other than identity,
 *   which the gateway does not decode): 415 UNSUPPORTED_MEDIA_TYPE;
 * - PUT, DELETE, PATCH: 405 METHOD_NOT_ALLOWED with `Allow`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

type RefusedCode = 'PAYLOAD_TOO_LARGE' | 'BAD_REQUEST' | 'UNSUPPORTED_MEDIA_TYPE' | 'METHOD_NOT_ALLOWED';

const STATUS: Record<RefusedCode, number> = {
  PAYLOAD_TOO_LARGE: 413,
  BAD_REQUEST: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  METHOD_NOT_ALLOWED: 405,
};

export const GRAPHQL_METHODS = ['GET', 'POST', 'OPTIONS'] as const;

function refuse(
  reply: FastifyReply,
  code: RefusedCode,
  message: string,
  extensions: Record<string, unknown> = {},
) {
  return reply
    .code(STATUS[code])
    .type('application/json; charset=utf-8')
    .send({ errors: [{ message, extensions: { code, ...extensions } }] });
}

const JSON_BODY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY:
    'The request body is not valid JSON (a "__proto__" or "constructor.prototype" key is refused too): send {"query": "...", "variables": {...}}.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty: send {"query": "...", "variables": {...}}.',
};

/** The GraphQL route's error handler: refusals of the request itself; anything else goes on. */
export function refusedRequestHandler(limit: number) {
  return (
    error: Error & { statusCode?: number; code?: string },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    if (error.statusCode === 413) {
      const length = Number(request.headers['content-length']);
      return refuse(
        reply,
        'PAYLOAD_TOO_LARGE',
        `Request body is larger than the maximum of ${limit} bytes: send a smaller request.`,
        { limit, ...(Number.isFinite(length) && length > 0 ? { measured: length } : {}) },
      );
    }
    if (error.statusCode === 415) return unsupportedMediaType(request, reply);
    const message = error.code ? JSON_BODY_MESSAGES[error.code] : undefined;
    if (message) return refuse(reply, 'BAD_REQUEST', message);
    throw error;
  };
}

function unsupportedMediaType(request: FastifyRequest, reply: FastifyReply) {
  const type = request.headers['content-type'];
  return refuse(
    reply,
    'UNSUPPORTED_MEDIA_TYPE',
    `${type ? `Content-Type ${JSON.stringify(type.slice(0, 100))} is not supported` : 'The request has no Content-Type'}: POST application/json, or GET with query parameters.`,
  );
}

/** onRequest of the GraphQL route: a compressed body would only fail as "not JSON" later. */
export async function refuseContentEncoding(request: FastifyRequest, reply: FastifyReply) {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return;
  return refuse(
    reply,
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Encoding ${JSON.stringify(encoding.slice(0, 100))} is not supported: send the body uncompressed.`,
  );
}

/** Handler of the methods GraphQL over HTTP does not use. */
export async function methodNotAllowed(request: FastifyRequest, reply: FastifyReply) {
  reply.header('allow', GRAPHQL_METHODS.join(', '));
  return refuse(
    reply,
    'METHOD_NOT_ALLOWED',
    `${request.method} is not a GraphQL over HTTP method: use POST (or GET for queries).`,
  );
}
