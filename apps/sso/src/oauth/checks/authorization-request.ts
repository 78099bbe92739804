/**
 * The authorization request (RFC 6749 4.1.1, 4.1.2.1; RFC 7636; Security BCP 4.1).
 * Checked in two stages, because where an error may go depends on what is already trusted:
 * 1. untrusted (an error page, never a redirect): parameters readable (no repeats), client_id
 *    names a registered application, redirect_uri matches one of its URIs (checks/redirect-uri);
 * 2. trusted redirect_uri (errors go back to it with error, error_description, state and iss):
 *    response_type is `code` (unsupported_response_type; missing: invalid_request), the
 *    application may use the authorization_code grant (unauthorized_client), the scope is within
 *    the application's allowed scopes (invalid_scope; default: all of them), PKCE per
 *    checks/pkce.ts (public clients must send S256).
 */
import { findApplication, type Application } from '../../data/applications';
import { OAuthError } from '../../errors';
import type { OAuthContext } from '../context';
import { readParams } from './params';
import { checkCodeChallenge } from './pkce';
import { matchRedirectUri } from './redirect-uri';
import { checkScope } from './scope';

export interface AuthorizationRequest {
  application: Application;
  redirectUri: string;
  /** Whether the request named redirect_uri (else the one registered URI is used). */
  redirectUriGiven: boolean;
  state: string | undefined;
  scope: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

/** Stage 1 failure: render a page, do not redirect. */
export class UntrustedRequestError extends Error {}

/** Stage 2 failure: redirect to redirectUri with the error. */
export class RedirectableError extends Error {
  constructor(
    readonly oauthError: OAuthError,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(oauthError.description);
  }
}

export async function checkAuthorizationRequest(
  ctx: OAuthContext,
  query: unknown,
): Promise<AuthorizationRequest> {
  let params: Record<string, string>;
  try {
    params = readParams(query);
  } catch (error) {
    throw new UntrustedRequestError((error as Error).message);
  }
  if (!params.client_id)
    throw new UntrustedRequestError('The request does not name an application (client_id is missing).');
  const application = await findApplication(ctx.knex, params.client_id);
  if (!application) throw new UntrustedRequestError('The application is not registered.');
  const redirectUri = matchRedirectUri(application, params.redirect_uri);
  if (!redirectUri)
    throw new UntrustedRequestError('The redirect address is not registered for this application.');

  const state = params.state;
  try {
    if (params.response_type === undefined)
      throw new OAuthError('invalid_request', 'Missing required parameter: response_type');
    if (params.response_type !== 'code')
      throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported');
    if (!application.grantTypes.includes('authorization_code')) {
      throw new OAuthError(
        'unauthorized_client',
        'This client is not allowed to use the authorization_code grant',
      );
    }
    const scope = checkScope(params.scope, application.allowedScopes.join(' '));
    const pkce = checkCodeChallenge(params, !application.confidential);
    return {
      application,
      redirectUri,
      redirectUriGiven: params.redirect_uri !== undefined,
      state,
      scope,
      ...pkce,
    };
  } catch (error) {
    if (error instanceof OAuthError) throw new RedirectableError(error, redirectUri, state);
    throw error;
  }
}

/** The redirect back to the client: its URI plus our parameters (its own query is kept). */
export function clientRedirect(
  redirectUri: string,
  issuer: string,
  values: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values))
    if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.href;
}
