/**
 * Requested scope (RFC 6749 3.3).
 * - no scope parameter: the grant's default (the password grant grants `public`, spec 5.4);
 * - a requested scope must be a subset of what the grant allows, else invalid_scope;
 * - the granted scope is the requested tokens, space separated, in the allowed order.
 */
import { OAuthError } from '../../errors';

export function checkScope(requested: string | undefined, allowed: string): string {
  if (requested === undefined) return allowed;
  const allowedSet = allowed.split(' ').filter(Boolean);
  const wanted = new Set(requested.split(' ').filter(Boolean));
  const unknown = [...wanted].filter((scope) => !allowedSet.includes(scope));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Scope not allowed: ${unknown.join(' ')}`);
  const granted = allowedSet.filter((scope) => wanted.has(scope));
  return granted.length > 0 ? granted.join(' ') : allowed;
}
