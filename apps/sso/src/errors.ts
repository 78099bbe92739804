/**
 * One error type for every client mistake the SSO answers: an RFC 6749 / RFC 6750 error code,
 * a human description, and the HTTP status. Route error handlers turn it into
 * `{ error, error_description }`; anything else is a server error (logged, message hidden).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_token'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'server_error'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: number = error === 'invalid_client' || error === 'invalid_token'
      ? 401
      : error === 'server_error'
        ? 500
        : error === 'temporarily_unavailable'
          ? 503
          : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** A quoted-string for a WWW-Authenticate parameter (RFC 7235): no quotes or backslashes inside. */
export function authParam(value: string): string {
  return `"${value.replace(/["\\]/g, "'")}"`;
}

/**
 * The WWW-Authenticate header an error needs: `Basic` for a client that failed to authenticate
 * (RFC 6749 5.2), `Bearer` for an access token refused by a resource (RFC 6750 3).
 */
export function wwwAuthenticate(error: OAuthError): string | undefined {
  if (error.error === 'invalid_client') return `Basic realm=${authParam('fleetgraph-sso')}`;
  if (error.error === 'invalid_token') {
    return `Bearer realm=${authParam('fleetgraph-sso')}, error="invalid_token", error_description=${authParam(error.description)}`;
  }
  return undefined;
}

/**
 * The database is away (libs/db isDatabaseUnavailable): RFC 6749's `temporarily_unavailable`,
 * HTTP 503 with Retry-After, rather than a server error. Nothing was changed.
 */
export function temporarilyUnavailable(retryAfterSeconds: number): OAuthError & { retryAfter: number } {
  return Object.assign(
    new OAuthError('temporarily_unavailable', 'The service is temporarily unavailable; retry later'),
    { retryAfter: retryAfterSeconds },
  );
}
