/**
 * The RFC 6750 answer to a refused bearer token, used by the gateway and every subgraph alike:
 * status 401, a `WWW-Authenticate: Bearer` challenge with no error code when the request carried
 * no token at all (section 3.1), `error="invalid_token"` otherwise, and the GraphQL error body
 * with `extensions.code` UNAUTHENTICATED.
 */
import type { AuthError } from './errors';

export const BEARER_REALM = 'fleetgraph';

export interface BearerChallenge {
  status: 401;
  /** value of the WWW-Authenticate header */
  header: string;
  body: { data: null; errors: Array<{ message: string; extensions: { code: 'UNAUTHENTICATED' } }> };
}

export function bearerChallenge(error: AuthError): BearerChallenge {
  const header =
    error.reason === 'missing_token'
      ? `Bearer realm="${BEARER_REALM}"`
      : `Bearer realm="${BEARER_REALM}", error="invalid_token"`;
  return {
    status: 401,
    header,
    body: { data: null, errors: [{ message: error.message, extensions: { code: 'UNAUTHENTICATED' } }] },
  };
}
