/**
 * Token endpoint parameters (RFC 6749 3.2, 5.2).
 * - the body is a form (application/x-www-form-urlencoded) or a JSON object; anything else is
 *   invalid_request;
 * - every parameter is a single string: a repeated parameter or a non-string JSON value is
 *   invalid_request (RFC 6749 3.1: parameters MUST NOT be included more than once);
 * - empty values count as absent (RFC 6749 3.1);
 * - a value holding a NUL character is invalid_request (no client sends one; PostgreSQL refuses it);
 * - a required parameter that is absent is invalid_request naming it.
 */
import { OAuthError } from '../../errors';
import type { TokenParams } from '../context';

export function readParams(body: unknown): TokenParams {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new OAuthError('invalid_request', 'The request body must be a form or a JSON object');
  }
  const params: TokenParams = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value))
      throw new OAuthError('invalid_request', `Parameter ${name} is included more than once`);
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string')
      throw new OAuthError('invalid_request', `Parameter ${name} must be a string`);
    if (value.includes('\u0000'))
      throw new OAuthError('invalid_request', `Parameter ${name} contains a NUL character`);
    params[name] = value;
  }
  return params;
}

export function requireParams<K extends string>(params: TokenParams, ...names: K[]): Record<K, string> {
  const missing = names.filter((name) => params[name] === undefined);
  if (missing.length > 0) {
    throw new OAuthError(
      'invalid_request',
      `Missing required parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
    );
  }
  return Object.fromEntries(names.map((name) => [name, params[name]])) as Record<K, string>;
}
