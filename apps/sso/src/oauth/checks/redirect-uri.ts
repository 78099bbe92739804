/**
 * redirect_uri (RFC 6749 3.1.2, OAuth 2.0 Security BCP 4.1.3, RFC 8252 7.3).
 * - compared exactly (string equality) with one of the application's registered URIs;
 * - the one exception: for loopback IP literals (http://127.0.0.1 and http://[::1]) the port may
 *   differ, since native apps listen on an ephemeral port; scheme, host, path and query must
 *   still match exactly (`localhost` gets no exception: it may resolve elsewhere);
 * - omitted: allowed only when the application registered exactly one URI, which is used;
 * - no match: null. The caller must then show an error page and never redirect.
 */
import type { Application } from '../../data/applications';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

function withoutPort(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return null;
  url.port = '';
  return url.href;
}

export function matchRedirectUri(application: Application, requested: string | undefined): string | null {
  if (requested === undefined)
    return application.redirectUris.length === 1 ? application.redirectUris[0]! : null;
  if (application.redirectUris.includes(requested)) return requested;
  const loopback = withoutPort(requested);
  if (loopback === null) return null;
  return application.redirectUris.some((registered) => withoutPort(registered) === loopback)
    ? requested
    : null;
}
