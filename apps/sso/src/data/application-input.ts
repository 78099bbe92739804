/**
 * Validation of an application's settings, shared by the admin CLI and the application pages.
 * - name: 1-100 characters after trimming;
 * - redirect URIs: at least one, at most 10, each absolute, without fragment, and either https,
 *   http on a loopback address (127.0.0.1, [::1], localhost; native apps, RFC 8252), or a
 *   private-use scheme with a dot (com.example.app:/callback); no duplicates;
 * - scopes and grant types: non-empty subsets of the supported ones; refresh_token alone is
 *   refused (it needs a grant that issues the first token).
 * Every problem is returned at once, as human sentences.
 */
import { GRANT_TYPES_SUPPORTED, SCOPES_SUPPORTED } from './applications';

export interface ApplicationSettings {
  name: string;
  redirectUris: string[];
  allowedScopes: string[];
  grantTypes: string[];
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute address`;
  }
  if (url.hash || uri.includes('#')) return `${uri} must not contain a fragment (#)`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:')
    return LOOPBACK.has(url.hostname)
      ? null
      : `${uri} must use https (http is only allowed for loopback addresses)`;
  if (/^[a-z][a-z0-9+-]*\.[a-z0-9.+-]+:$/i.test(url.protocol)) return null;
  return `${uri} must use https, http on a loopback address, or a private-use scheme such as com.example.app:/callback`;
}

export function validateApplicationSettings(input: {
  name?: string;
  redirectUris?: string[];
  allowedScopes?: string[];
  grantTypes?: string[];
}): {
  settings: ApplicationSettings;
  problems: string[];
} {
  const problems: string[] = [];
  const name = (input.name ?? '').trim();
  if (name.length === 0 || name.length > 100) problems.push('The name must be 1 to 100 characters.');
  const redirectUris = (input.redirectUris ?? []).map((uri) => uri.trim()).filter(Boolean);
  if (redirectUris.length === 0) problems.push('Give at least one redirect URI.');
  if (redirectUris.length > 10) problems.push('Give at most 10 redirect URIs.');
  if (new Set(redirectUris).size !== redirectUris.length) problems.push('A redirect URI is listed twice.');
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) problems.push(problem);
  }
  const allowedScopes = input.allowedScopes ?? ['public'];
  if (allowedScopes.length === 0) problems.push('Choose at least one scope.');
  const unknownScopes = allowedScopes.filter(
    (scope) => !(SCOPES_SUPPORTED as readonly string[]).includes(scope),
  );
  if (unknownScopes.length) problems.push(`Unknown scopes: ${unknownScopes.join(', ')}.`);
  const grantTypes = input.grantTypes ?? ['authorization_code', 'refresh_token'];
  const unknownGrants = grantTypes.filter(
    (grant) => !(GRANT_TYPES_SUPPORTED as readonly string[]).includes(grant),
  );
  if (unknownGrants.length) problems.push(`Unknown grant types: ${unknownGrants.join(', ')}.`);
  if (grantTypes.length === 0 || grantTypes.every((grant) => grant === 'refresh_token')) {
    problems.push('Choose authorization_code or password (refresh_token alone issues nothing).');
  }
  return { settings: { name, redirectUris, allowedScopes, grantTypes }, problems };
}
