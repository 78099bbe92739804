/**
 * The peer of the SSO benchmark (tools/bench/src/sso-peers.ts): node-oidc-provider v9 (the
 * `oidc-provider` package of tools/bench/peers) in its own process, over node:http. Its defaults are kept except
 * what the comparison needs:
 * - storage: its default in-memory adapter (nothing durable: the anchor the issue names);
 * - access tokens: JWT, RS256, for one resource (features.resourceIndicators: RESOURCE, scope
 *   `api:read`, audience `fleetgraph`, 7200 s), carrying the same `user` claims as Fleetgraph's;
 * - refresh tokens: issued to a client allowed the refresh_token grant, rotated on every use
 *   (`rotateRefreshToken: true`; a reused one revokes the grant), 30 days, not tied to a browser
 *   session (like Fleetgraph's);
 * - no `openid` scope is asked, so a refresh signs one token (the access token) on both sides;
 * - one confidential client (client_secret_basic), OIDC_PEER_CLIENT_ID / OIDC_PEER_CLIENT_SECRET;
 * - the interaction endpoint signs in the account named by `login_hint` and grants what was asked,
 *   at once (no pages): the benchmark obtains its first refresh tokens through the real
 *   authorization-code flow (/auth -> /interaction/:uid -> /auth/:uid -> code -> /token) without
 *   a browser. Only the set-up uses it; the measured loop is the refresh_token grant alone.
 *
 *   OIDC_PEER_PORT=4901 OIDC_PEER_CLIENT_SECRET=... node --import tsx tools/bench/peers/src/oidc-peer.ts
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const RESOURCE = 'urn:fleetgraph:api';
const RESOURCE_SCOPE = 'api:read';
const PEER_REDIRECT_URI = 'http://127.0.0.1/callback';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface GrantModel {
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface OidcProvider {
  callback(): Handler;
  on(event: string, listener: (...args: unknown[]) => void): void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ params: Record<string, string> }>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: new (input: { accountId: string; clientId: string }) => GrantModel;
}

// Loaded by name, untyped: the package ships no declarations (and @types/oidc-provider is not installed).
const OIDC_PROVIDER = 'oidc-provider';
const { Provider } = (await import(OIDC_PROVIDER)) as {
  Provider: new (issuer: string, config: Record<string, unknown>) => OidcProvider;
};

const port = Number(process.env.OIDC_PEER_PORT ?? 4901);
const clientId = process.env.OIDC_PEER_CLIENT_ID ?? 'bench-client';
const clientSecret = process.env.OIDC_PEER_CLIENT_SECRET ?? 'bench-client-secret-0123456789abcdef';
const issuer = `http://127.0.0.1:${port}`;

/** RSA 2048, as Fleetgraph's signing key. */
function signingJwk(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: 'oidc-peer', alg: 'RS256', use: 'sig' };
}

/** Bench accounts are `bench<n>@oidc-peer.test`; every id is an account (no user store to read). */
const account = (id: string) => ({
  accountId: id,
  claims: async () => ({ sub: id }),
});

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [PEER_REDIRECT_URI],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [signingJwk()] },
  cookies: { keys: ['oidc-peer-cookie-key-0123456789abcdef'] },
  findAccount: async (_ctx: unknown, id: string) => account(id),
  features: {
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => RESOURCE,
      useGrantedResource: async () => true,
      getResourceServerInfo: async () => ({
        scope: RESOURCE_SCOPE,
        audience: 'fleetgraph',
        accessTokenTTL: 7200,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  // Fleetgraph's access token carries the user (uid, email, full_name): the same claims here.
  extraTokenClaims: async (_ctx: unknown, token: { accountId: string }) => ({
    user: { uid: token.accountId, email: token.accountId, full_name: `Bench ${token.accountId}` },
  }),
  issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
    client.grantTypeAllowed('refresh_token'),
  expiresWithSession: async () => false,
  rotateRefreshToken: true,
  ttl: {
    AccessToken: 7200,
    AuthorizationCode: 600,
    Grant: 30 * 24 * 3600,
    Interaction: 600,
    RefreshToken: 30 * 24 * 3600,
    Session: 3600,
  },
});
provider.on('server_error', (_ctx, error) =>
  process.stderr.write(`oidc-peer server_error: ${String(error)}\n`),
);

/** Signs in `login_hint` and grants the requested resource scope, then resumes the authorization. */
async function autoConsent(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { params } = await provider.interactionDetails(req, res);
  const accountId = params.login_hint;
  if (!accountId) throw new Error('login_hint names the account to sign in');
  const grant = new provider.Grant({ accountId, clientId: params.client_id! });
  grant.addResourceScope(RESOURCE, RESOURCE_SCOPE);
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

const oidc = provider.callback();
const server = createServer((req, res) => {
  if (req.url?.startsWith('/interaction/')) {
    autoConsent(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
    return;
  }
  oidc(req, res);
});
server.keepAliveTimeout = 30_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`oidc-provider peer listening on ${port}\n`);
});
const stop = () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
