/**
 * What every HTML page route family shares: cookies, form bodies, and the page headers
 * (no-store, no framing, no referrer, nosniff, a CSP that allows no script and no remote
 * resource), plus small helpers to send a page and read a form field.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

export async function pageDefaults(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  await app.register(formbody);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', PAGE_CSP);
  });
}

export function sendPage(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

export function queryString(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index >= 0 ? request.url.slice(index + 1) : '';
}

/** A single string field of a form body (a repeated or missing field is undefined). */
/**
 * A form field's value. A value holding a NUL character (never typed by a person, and refused by
 * PostgreSQL) counts as not given, so the form's own checks answer it, never a server error.
 */
export function formField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && !value.includes('\u0000') ? value : undefined;
}

/**
 * A path parameter, or undefined when it holds a NUL character: PostgreSQL text cannot hold one,
 * so no stored value can match it, and the statement would fail instead of finding nothing.
 */
export function routeParam(request: { params: unknown }, name: string): string | undefined {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && !value.includes('\u0000') ? value : undefined;
}

/** Every value of a field that may repeat (checkboxes). */
export function formFields(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return values.filter((v): v is string => typeof v === 'string' && !v.includes('\u0000'));
}
