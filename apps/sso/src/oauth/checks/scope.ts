/**
 * Requested scope (RFC 6749 3.3).
 * - no scope parameter: the grant's default (the password grant grants `public`, spec 5.4);
 * - a requested scope must be a subset of what the grant allows, else invalid_scope;
 * - the granted scope is the requested tokens, space separated, in the allowed order;
 * - the error names the refused scopes, at most NAMED_AT_MOST of them, each cut at NAME_CHARS:
 *   a client's own text is not echoed back at any length.
 */
import { OAuthError } from '../../errors';

const NAMED_AT_MOST = 5;
const NAME_CHARS = 40;

function refusedScopes(unknown: string[]): string {
  const named = unknown
    .slice(0, NAMED_AT_MOST)
    .map((scope) => (scope.length > NAME_CHARS ? `${scope.slice(0, NAME_CHARS)}...` : scope));
  const more = unknown.length - named.length;
  return named.join(' ') + (more > 0 ? ` (and ${more} more)` : '');
}

export function checkScope(requested: string | undefined, allowed: string): string {
  if (requested === undefined) return allowed;
  const allowedSet = allowed.split(' ').filter(Boolean);
  const wanted = new Set(requested.split(' ').filter(Boolean));
  const unknown = [...wanted].filter((scope) => !allowedSet.includes(scope));
  if (unknown.length > 0)
    throw new OAuthError('invalid_scope', `Scope not allowed: ${refusedScopes(unknown)}`);
  const granted = allowedSet.filter((scope) => wanted.has(scope));
  return granted.length > 0 ? granted.join(' ') : allowed;
}
