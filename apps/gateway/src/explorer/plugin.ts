/**
 * The explorer: GraphiQL served by the gateway at /explorer, signed in through the SSO.
 * - GET /explorer: the page (strict CSP, no inline code); without EXPLORER_CLIENT_ID/SECRET a
 *   page (503) saying how to configure it. GET /graphql asked for by a browser (Accept: text/html
 *   without JSON) redirects here.
 * - GET /explorer/login: @fastify/oauth2 starts the authorization-code flow with PKCE (S256) and
 *   a random `state`, both kept in short-lived HttpOnly cookies, and redirects to the SSO's
 *   /oauth/authorize.
 * - GET /explorer/callback: checks `state` against its cookie, exchanges the code (with the PKCE
 *   verifier and the client secret, server to server), verifies the access token like any
 *   request, stores the tokens in the encrypted session cookie (session.ts) and redirects to
 *   /explorer. The code and the tokens never reach a URL the page can see.
 * - GET /explorer/session: who is signed in, and the access token for GraphiQL's Authorization
 *   header (refreshed with the refresh token shortly before it expires). Needs the
 *   `x-fleetgraph-explorer` header, which no other site can send without a CORS preflight the
 *   gateway never grants, and refuses cross-site fetches (Sec-Fetch-Site).
 * - POST /explorer/logout: revokes the refresh token (and so its access tokens) at the SSO and
 *   clears the cookie; same header rule.
 */
import { createHash } from 'node:crypto';
import cookie from '@fastify/cookie';
import oauth2, { type OAuth2Namespace, type Token } from '@fastify/oauth2';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenVerifier, UserContext } from '@fleetgraph/auth';
import type { ExplorerConfig } from '../config';
import { loadAssets, type Asset } from './assets';
import { explorerPage, messagePage, PAGE_HEADERS } from './page';
import { sessionCodec, type ExplorerSession } from './session';

export const EXPLORER_SCOPES = ['public', 'read', 'write'];
const CLIENT_HEADER = 'x-fleetgraph-explorer';
const SSO_TIMEOUT_MS = 5_000;
/** Refresh the access token when it has less than this many seconds left. */
const REFRESH_MARGIN_SECONDS = 60;

export interface ExplorerOptions {
  explorer: ExplorerConfig | undefined;
  /** The SSO as browsers reach it (its issuer URL). */
  issuer: string;
  verifier: TokenVerifier;
}

export function registerExplorer(app: FastifyInstance, options: ExplorerOptions): void {
  const assets = loadAssets();

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || !/^\/graphql\/?$/.test(request.url)) return;
    const accept = String(request.headers.accept ?? '');
    if (accept.includes('text/html') && !accept.includes('json')) return reply.redirect('/explorer', 302);
  });

  app.get('/explorer/assets/:hash/:name', async (request, reply) => {
    const { hash, name } = request.params as { hash: string; name: string };
    const asset = assets.get(name);
    // An old or made-up address: the gateway's 404, as for any path it does not serve.
    if (!asset || asset.hash !== hash) return reply.callNotFound();
    return sendAsset(request, reply, asset);
  });

  if (!options.explorer) {
    app.get('/explorer', async (_request, reply) =>
      reply
        .code(503)
        .headers(PAGE_HEADERS)
        .send(
          messagePage(assets, 'The explorer is not configured', [
            'This gateway has no OAuth client for the explorer, so nobody could sign in to it.',
            'Register an application at the SSO with the redirect URI <gateway address>/explorer/callback (npx tsx apps/sso/src/cli.ts app create --name Explorer --redirect-uri ...) and start the gateway with EXPLORER_CLIENT_ID and EXPLORER_CLIENT_SECRET. `npm start` does this by itself.',
          ]),
        ),
    );
    return;
  }
  const explorer = options.explorer;
  app.register(async (scope) => {
    await scope.register(cookie);
    await configureSignIn(scope, explorer, options, assets);
  });
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.headers({
    'content-type': asset.type,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    vary: 'accept-encoding',
  });
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(asset.gzipped());
  }
  return reply.send(asset.body);
}

async function configureSignIn(
  scope: FastifyInstance,
  explorer: ExplorerConfig,
  options: ExplorerOptions,
  assets: Map<string, Asset>,
): Promise<void> {
  const codec = sessionCodec(explorer.sessionSecret, explorer.secureCookies);
  const issuer = options.issuer.replace(/\/$/, '');
  await scope.register(oauth2, {
    name: 'explorerSso',
    scope: EXPLORER_SCOPES,
    credentials: {
      client: { id: explorer.clientId, secret: explorer.clientSecret },
      auth: {
        authorizeHost: issuer,
        authorizePath: '/oauth/authorize',
        tokenHost: explorer.ssoUrl,
        tokenPath: '/oauth/token',
        revokePath: '/oauth/revoke',
      },
      options: { authorizationMethod: 'header' },
      // The SSO not answering must not hold the callback, refresh or sign-out forever.
      http: { timeout: SSO_TIMEOUT_MS },
    },
    startRedirectPath: '/explorer/login',
    callbackUri: `${explorer.publicUrl}/explorer/callback`,
    pkce: 'S256',
    // Lax: the callback is a top-level navigation coming back from the SSO's site.
    cookie: { secure: explorer.secureCookies, httpOnly: true, sameSite: 'lax', path: '/' },
    hostPrefixedCookies: explorer.secureCookies,
    userAgent: 'fleetgraph-gateway-explorer',
  });
  const sso = (scope as unknown as { explorerSso: OAuth2Namespace }).explorerSso;

  const page = (reply: FastifyReply, status: number, title: string, paragraphs: string[]) =>
    reply
      .code(status)
      .headers(PAGE_HEADERS)
      .send(messagePage(assets, title, paragraphs));

  scope.get('/explorer', async (_request, reply) => reply.headers(PAGE_HEADERS).send(explorerPage(assets)));

  scope.get('/explorer/callback', async (request, reply) => {
    const query = request.query as { error?: string; error_description?: string; code?: string };
    if (query.error) {
      return page(reply, 400, 'Sign-in did not complete', [
        query.error === 'access_denied'
          ? 'Access was not allowed at the sign-in page.'
          : `The SSO answered: ${query.error}${query.error_description ? ` (${query.error_description})` : ''}.`,
      ]);
    }
    let token: Token;
    try {
      ({ token } = await sso.getAccessTokenFromAuthorizationCodeFlow(request, reply));
    } catch (error) {
      const invalidState = (error as Error).message === 'Invalid state';
      request.log.warn({ err: error }, 'explorer sign-in failed');
      return page(reply, 400, 'Sign-in did not complete', [
        invalidState
          ? 'This sign-in link is not the one this browser started (the state does not match). Please sign in again.'
          : 'The sign-in code could not be exchanged for a token. Please sign in again.',
      ]);
    }
    let user: UserContext;
    try {
      user = await options.verifier.verify(token.access_token);
    } catch (error) {
      request.log.warn({ err: error }, 'explorer sign-in returned a token the gateway does not accept');
      return page(reply, 400, 'Sign-in did not complete', [
        'The SSO issued a token this gateway does not accept.',
      ]);
    }
    const session: ExplorerSession = {
      accessToken: token.access_token,
      ...(token.refresh_token ? { refreshToken: token.refresh_token } : {}),
      expiresAt: user.exp,
      createdAt: Math.floor(Date.now() / 1000),
    };
    reply.setCookie(codec.cookieName, codec.seal(session), codec.cookieOptions);
    return reply.header('cache-control', 'no-store').redirect('/explorer', 303);
  });

  const fromThisPage = (request: FastifyRequest) => {
    const site = request.headers['sec-fetch-site'];
    return request.headers[CLIENT_HEADER] === '1' && (site === undefined || site === 'same-origin');
  };

  scope.get('/explorer/session', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!fromThisPage(request)) return forbidden(reply);
    let session = codec.open(request.cookies[codec.cookieName]);
    if (!session) return { signedIn: false };
    const now = Date.now() / 1000;
    if (session.expiresAt - now < REFRESH_MARGIN_SECONDS) {
      session = session.refreshToken ? await refresh(request, session) : undefined;
      if (!session) {
        reply.clearCookie(codec.cookieName, codec.cookieOptions);
        return { signedIn: false };
      }
      reply.setCookie(codec.cookieName, codec.seal(session), codec.cookieOptions);
    }
    try {
      const user = await options.verifier.verify(session.accessToken);
      return {
        signedIn: true,
        accessToken: session.accessToken,
        expiresAt: user.exp,
        user: { email: user.email, fullName: user.fullName },
      };
    } catch {
      // revoked, or signed by a key the SSO no longer publishes
      reply.clearCookie(codec.cookieName, codec.cookieOptions);
      return { signedIn: false };
    }
  });

  // One refresh per refresh token at a time: two tabs (or GraphiQL's schema fetch beside a query)
  // asking at once share it. Two uses of one refresh token would look like theft to the SSO,
  // which would revoke the whole login.
  const refreshing = new Map<string, Promise<ExplorerSession | undefined>>();
  function refresh(request: FastifyRequest, session: ExplorerSession) {
    const key = createHash('sha256')
      .update(session.refreshToken ?? '')
      .digest('base64url');
    let pending = refreshing.get(key);
    if (!pending) {
      pending = refreshOnce(request, session).finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return pending;
  }

  async function refreshOnce(request: FastifyRequest, session: ExplorerSession) {
    try {
      const { token } = await sso.getNewAccessTokenUsingRefreshToken(
        {
          access_token: session.accessToken,
          refresh_token: session.refreshToken,
          token_type: 'Bearer',
          expires_in: 0,
        } as unknown as Token,
        {},
      );
      const user = await options.verifier.verify(token.access_token);
      return {
        accessToken: token.access_token,
        ...((token.refresh_token ?? session.refreshToken)
          ? { refreshToken: token.refresh_token ?? session.refreshToken }
          : {}),
        expiresAt: user.exp,
        createdAt: session.createdAt,
      } satisfies ExplorerSession;
    } catch (error) {
      request.log.info({ err: error }, 'explorer session could not be refreshed');
      return undefined;
    }
  }

  scope.post('/explorer/logout', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!fromThisPage(request)) return forbidden(reply);
    const session = codec.open(request.cookies[codec.cookieName]);
    reply.clearCookie(codec.cookieName, codec.cookieOptions);
    if (session) {
      // Revoking the refresh token revokes its family, access tokens included (best effort).
      const hint = session.refreshToken ? 'refresh_token' : 'access_token';
      const tokens = { access_token: session.accessToken, refresh_token: session.refreshToken };
      await sso
        .revokeToken(tokens as unknown as Token, hint, {})
        .catch((error: unknown) => request.log.warn({ err: error }, 'explorer sign-out: revocation failed'));
    }
    return { signedIn: false };
  });
}

function forbidden(reply: FastifyReply) {
  return reply.code(403).send({
    error: 'forbidden',
    message: 'This address answers only the explorer page of this gateway.',
  });
}
