/**
 * grant_type (RFC 6749 4.3.2, 6).
 * - absent: invalid_request;
 * - not one this server implements: unsupported_grant_type.
 */
import { OAuthError } from '../../errors';
import type { TokenParams } from '../context';

export function checkGrantType<G extends string>(params: TokenParams, supported: readonly G[]): G {
  const grantType = params.grant_type;
  if (grantType === undefined)
    throw new OAuthError('invalid_request', 'Missing required parameter: grant_type');
  if (!(supported as readonly string[]).includes(grantType)) {
    throw new OAuthError(
      'unsupported_grant_type',
      `Unsupported grant_type ${JSON.stringify(grantType.slice(0, 64))}; supported: ${supported.join(', ')}`,
    );
  }
  return grantType as G;
}
