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

/**
 * A string PostgreSQL text can hold: one with a NUL character (never typed by a person) counts as
 * not given, so the page's own checks answer it (a missing field, an unknown id), never a server
 * error.
 */
const storable = (value: unknown): value is string => typeof value === 'string' && !value.includes('\u0000');
const valueOf = (record: unknown, name: string) => (record as Record<string, unknown> | undefined)?.[name];

/** A single string field of a form body (undefined when missing, repeated, or not `storable`). */
export function formField(body: unknown, name: string): string | undefined {
  const value = valueOf(body, name);
  return storable(value) ? value : undefined;
}

/** A path parameter (undefined unless `storable`: no stored value could match it). */
export function routeParam(request: { params: unknown }, name: string): string | undefined {
  const value = valueOf(request.params, name);
  return storable(value) ? value : undefined;
}

/** Every `storable` value of a field that may repeat (checkboxes). */
export function formFields(body: unknown, name: string): string[] {
  const value = valueOf(body, name);
  return (Array.isArray(value) ? value : [value]).filter(storable);
}
