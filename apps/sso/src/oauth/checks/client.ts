/**
 * Which client a token request speaks for (RFC 6749 2.3.1).
 * - client credentials come from HTTP Basic (client_id:client_secret, form-urlencoded) or from the
 *   client_id / client_secret body parameters, never both (invalid_request);
 * - a malformed Basic header is invalid_client (401 with WWW-Authenticate);
 * - no client at all is allowed for the password grant (scripts of an account owner, spec 5.2);
 * - first cut: applications are not registered yet, so a client_secret is not checked; the
 *   client_id is recorded on the tokens and binds the refresh-token family to it.
 */
import { OAuthError } from '../../errors';
import type { ClientIdentity, TokenParams } from '../context';

function decodeBasic(header: string): { id: string; secret: string } {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials');
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials');
  }
}

export function resolveClient(authorization: string | undefined, params: TokenParams): ClientIdentity {
  if (authorization && /^Basic /i.test(authorization.trim())) {
    if (params.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'Client credentials must be sent in one way only: HTTP Basic or the request body');
    }
    const basic = decodeBasic(authorization);
    if (params.client_id !== undefined && params.client_id !== basic.id) {
      throw new OAuthError('invalid_request', 'client_id does not match the HTTP Basic client credentials');
    }
    return { clientId: basic.id };
  }
  return { clientId: params.client_id ?? null };
}
