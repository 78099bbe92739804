/**
 * Discovery (RFC 8414 /.well-known/oauth-authorization-server, OpenID Connect Discovery
 * /.well-known/openid-configuration): the same metadata at both addresses, built from the
 * configured issuer (never from the request's Host header), cacheable for a few minutes.
 * - response_types [code], code_challenge_methods [S256], client authentication
 *   [client_secret_basic, client_secret_post, none], the grants and scopes this server knows;
 * - userinfo_endpoint is the spec's profile endpoint /api/v1/users/me.
 */
import type { FastifyInstance } from 'fastify';
import type { SsoConfig } from '../config';
import { GRANT_TYPES_SUPPORTED, SCOPES_SUPPORTED } from '../data/applications';

export const DISCOVERY_MAX_AGE_SECONDS = 300;

export function serverMetadata(config: Pick<SsoConfig, 'issuer'>) {
  const base = config.issuer.replace(/\/+$/, '');
  return {
    issuer: config.issuer,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    jwks_uri: `${base}/.well-known/jwks.json`,
    revocation_endpoint: `${base}/oauth/revoke`,
    introspection_endpoint: `${base}/oauth/introspect`,
    userinfo_endpoint: `${base}/api/v1/users/me`,
    grant_types_supported: [...GRANT_TYPES_SUPPORTED],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES_SUPPORTED],
    subject_types_supported: ['public'],
    authorization_response_iss_parameter_supported: true,
  };
}

export async function discoveryRoutes(app: FastifyInstance, config: SsoConfig): Promise<void> {
  const metadata = serverMetadata(config);
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    app.get(path, async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`);
      return metadata;
    });
  }
}
