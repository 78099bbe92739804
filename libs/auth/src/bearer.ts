import { AuthError } from './errors';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 6750). */
export function bearerToken(header: string | undefined): string {
  if (!header)
    throw new AuthError(
      'missing_token',
      'Authentication required: send Authorization: Bearer <access token>',
    );
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (!match?.[1])
    throw new AuthError('invalid_token', 'Malformed Authorization header: expected "Bearer <access token>"');
  return match[1];
}
