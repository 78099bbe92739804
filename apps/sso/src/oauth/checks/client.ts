/**
 * Client authentication (RFC 6749 2.3.1, OpenID Connect Core 9: client_secret_basic,
 * client_secret_post, none).
 * - credentials come from HTTP Basic (client_id:client_secret, form-urlencoded) or from the
 *   client_id / client_secret body parameters, never both (invalid_request);
 * - a malformed Basic header is invalid_client (401 with WWW-Authenticate);
 * - no client at all is allowed only where the grant allows it (password grant scripts, spec 5.2);
 * - an unknown client_id, a confidential client without its secret or with a wrong one, and a
 *   public client presenting a secret are invalid_client; the same description for each, so the
 *   answer does not tell which client ids exist;
 * - secrets are compared in constant time (data/applications.ts);
 * - checkClientGrant: an application may only use the grant types it was registered with
 *   (unauthorized_client).
 */
import { clientSecretMatches, findApplication } from '../../data/applications';
import { OAuthError } from '../../errors';
import type { ClientIdentity, OAuthContext, TokenParams } from '../context';

const BAD_CLIENT = 'Client authentication failed';

function decodeBasic(header: string): { id: string; secret: string } {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials');
  let credentials: { id: string; secret: string };
  try {
    credentials = {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials');
  }
  if (credentials.id.includes('\u0000') || credentials.secret.includes('\u0000'))
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic client credentials');
  return credentials;
}

/** The presented credentials, not yet checked. */
export function readClientCredentials(
  authorization: string | undefined,
  params: TokenParams,
): { id: string; secret: string | undefined } | null {
  if (authorization && /^Basic /i.test(authorization.trim())) {
    if (params.client_secret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'Client credentials must be sent in one way only: HTTP Basic or the request body',
      );
    }
    const basic = decodeBasic(authorization);
    if (params.client_id !== undefined && params.client_id !== basic.id) {
      throw new OAuthError('invalid_request', 'client_id does not match the HTTP Basic client credentials');
    }
    return { id: basic.id, secret: basic.secret };
  }
  if (params.client_id === undefined) {
    if (params.client_secret !== undefined)
      throw new OAuthError('invalid_request', 'client_secret was sent without client_id');
    return null;
  }
  return { id: params.client_id, secret: params.client_secret };
}

export async function authenticateClient(
  ctx: OAuthContext,
  authorization: string | undefined,
  params: TokenParams,
): Promise<ClientIdentity> {
  const credentials = readClientCredentials(authorization, params);
  if (!credentials) return { clientId: null, application: null };
  let application = ctx.applications
    ? await ctx.applications.find(credentials.id)
    : await findApplication(ctx.knex, credentials.id);
  // A cached row whose secret does not match may predate a rotation announced a moment ago: the
  // new secret is then checked against the row as it is now.
  if (
    ctx.applications &&
    application?.confidential &&
    credentials.secret !== undefined &&
    !clientSecretMatches(application.clientSecretHash, credentials.secret)
  ) {
    ctx.applications.invalidate(credentials.id);
    application = await ctx.applications.find(credentials.id);
  }
  if (!application) {
    // Same work as a real comparison: no timing difference between unknown and wrong.
    clientSecretMatches(null, credentials.secret ?? '');
    throw new OAuthError('invalid_client', BAD_CLIENT);
  }
  if (application.confidential) {
    if (
      credentials.secret === undefined ||
      !clientSecretMatches(application.clientSecretHash, credentials.secret)
    ) {
      throw new OAuthError('invalid_client', BAD_CLIENT);
    }
  } else if (credentials.secret !== undefined && credentials.secret !== '') {
    throw new OAuthError('invalid_client', 'This is a public client: it has no client_secret');
  }
  return { clientId: application.clientId, application };
}

/** Requires an authenticated client (endpoints and grants that cannot be used anonymously). */
export function requireClient(
  client: ClientIdentity,
  what: string,
): asserts client is { clientId: string; application: NonNullable<ClientIdentity['application']> } {
  if (!client.application)
    throw new OAuthError('invalid_client', `Client authentication is required for ${what}`);
}

export function checkClientGrant(client: ClientIdentity, grantType: string): void {
  if (client.application && !client.application.grantTypes.includes(grantType)) {
    throw new OAuthError('unauthorized_client', `This client is not allowed to use the ${grantType} grant`);
  }
}
