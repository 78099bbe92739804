/**
 * PKCE (RFC 7636, OAuth 2.0 Security BCP 2.1.1).
 * At the authorization endpoint (checkCodeChallenge):
 * - code_challenge_method is S256 only (absent means S256 when a challenge is given; `plain` is
 *   refused: invalid_request);
 * - the challenge is 43 base64url characters (a SHA-256); anything else is invalid_request;
 * - a public client must send a challenge; a confidential one may.
 * At the token endpoint (checkCodeVerifier):
 * - a code issued with a challenge needs a code_verifier (43-128 unreserved characters) whose
 *   S256 equals it, else invalid_grant;
 * - a code_verifier for a code issued without a challenge is refused (downgrade): invalid_grant.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError } from '../../errors';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function checkCodeChallenge(
  params: Record<string, string | undefined>,
  isPublicClient: boolean,
): { codeChallenge: string | null; codeChallengeMethod: string | null } {
  const challenge = params.code_challenge;
  const method = params.code_challenge_method;
  if (challenge === undefined) {
    if (method !== undefined)
      throw new OAuthError('invalid_request', 'code_challenge_method was sent without code_challenge');
    if (isPublicClient)
      throw new OAuthError(
        'invalid_request',
        'PKCE is required for public clients: send code_challenge with code_challenge_method=S256',
      );
    return { codeChallenge: null, codeChallengeMethod: null };
  }
  if (method !== undefined && method !== 'S256')
    throw new OAuthError('invalid_request', 'Only code_challenge_method=S256 is supported');
  if (!CHALLENGE.test(challenge))
    throw new OAuthError(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)',
    );
  return { codeChallenge: challenge, codeChallengeMethod: 'S256' };
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function checkCodeVerifier(codeChallenge: string | null, verifier: string | undefined): void {
  if (codeChallenge === null) {
    if (verifier !== undefined)
      throw new OAuthError(
        'invalid_grant',
        'code_verifier was sent, but the authorization request had no code_challenge',
      );
    return;
  }
  if (verifier === undefined)
    throw new OAuthError('invalid_grant', 'code_verifier is required for this code');
  if (!VERIFIER.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier is malformed');
  const expected = Buffer.from(codeChallenge);
  const actual = Buffer.from(s256(verifier));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  }
}
