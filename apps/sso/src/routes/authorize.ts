/**
 * The authorization endpoint and its pages (spec 5.3, RFC 6749 4.1).
 * - GET /oauth/authorize: checks the request (checks/authorization-request.ts); no session ->
 *   sign-in page; signed in and consent remembered for these scopes (confidential clients only:
 *   a public client's user confirms every time) -> 302 to redirect_uri with code, state and iss;
 *   else the consent page naming the application and the scopes;
 * - POST /oauth/authorize/sign-in?<request>: CSRF token, then session/sign-in.ts (throttling per
 *   account and address: 429 page with Retry-After; argon2; unknown and disabled users refused
 *   like a wrong password); success starts a new session and 303s back to GET
 *   /oauth/authorize?<request> (a fixed path: no open redirect);
 * - POST /oauth/authorize?<request>: the consent decision (CSRF token, session required);
 *   approve remembers the consent and redirects with a code, deny redirects with access_denied;
 * - an untrusted client_id or redirect_uri renders an error page (400) and never redirects;
 *   other errors redirect to the trusted redirect_uri with error, error_description and state;
 * - a missing or wrong CSRF token is 403 with a fresh form;
 * - pages: no-store, no framing, no referrer, a CSP without scripts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../data/audit';
import { insertAuthorizationCode } from '../data/authorization-codes';
import { grantConsent, hasConsent } from '../data/consents';
import { findUserById } from '../data/users';
import { OAuthError } from '../errors';
import {
  checkAuthorizationRequest,
  clientRedirect,
  RedirectableError,
  UntrustedRequestError,
  type AuthorizationRequest,
} from '../oauth/checks/authorization-request';
import type { OAuthContext } from '../oauth/context';
import { consentPage, errorPage } from '../pages/authorize-pages';
import { formField, pageDefaults, queryString, sendPage } from '../pages/page-plugin';
import { cookieNames, csrfTokenValid, ensureCsrfToken, sessionUserId } from '../session/cookies';
import { handleSignInPost, sendSignInPage } from '../session/sign-in-form';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@fleetgraph/db';

/**
 * A body Fastify could not read (not a web form, malformed JSON, past the body limit): the
 * sender's mistake, answered with its status on a page, not as our failure.
 */
function unreadableFormPage(status: number): string {
  const reason =
    status === 413
      ? 'The form sent was too large.'
      : status === 415
        ? 'The form was not sent as a web form.'
        : 'The form sent could not be read.';
  return errorPage('This request could not be read', reason);
}

export async function authorizeRoutes(app: FastifyInstance, ctx: OAuthContext): Promise<void> {
  await pageDefaults(app);
  const names = cookieNames(ctx.config);

  app.setErrorHandler((error: Error, request, reply) => {
    if (error instanceof UntrustedRequestError)
      return sendPage(reply, 400, errorPage('This sign-in link is not valid', error.message));
    if (error instanceof RedirectableError) {
      const { oauthError } = error;
      return reply.redirect(
        clientRedirect(error.redirectUri, ctx.config.issuer, {
          error: oauthError.error,
          error_description: oauthError.description,
          state: error.state,
        }),
        request.method === 'GET' ? 302 : 303,
      );
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendPage(reply, 503, errorPage('Temporarily unavailable', 'Please try again in a moment.'));
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) return sendPage(reply, status, unreadableFormPage(status));
    request.log.error({ err: error }, 'authorization request failed');
    return sendPage(reply, 500, errorPage('Something went wrong', 'Please try again in a moment.'));
  });

  const signInAction = (request: FastifyRequest) => `/oauth/authorize/sign-in?${queryString(request)}`;
  const consentAction = (request: FastifyRequest) => `/oauth/authorize?${queryString(request)}`;

  async function issueCode(
    request: FastifyRequest,
    reply: FastifyReply,
    authz: AuthorizationRequest,
    userId: string,
    status: 302 | 303,
  ) {
    const code = await insertAuthorizationCode(ctx.knex, {
      clientId: authz.application.clientId,
      userId,
      redirectUri: authz.redirectUri,
      redirectUriGiven: authz.redirectUriGiven,
      scope: authz.scope,
      codeChallenge: authz.codeChallenge,
      codeChallengeMethod: authz.codeChallengeMethod,
    });
    await audit(ctx.knex, 'authorize.code_issued', {
      userId,
      clientId: authz.application.clientId,
      ip: request.ip,
      detail: { scope: authz.scope },
    });
    return reply.redirect(
      clientRedirect(authz.redirectUri, ctx.config.issuer, { code, state: authz.state }),
      status,
    );
  }

  const showSignIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    authz: AuthorizationRequest,
    status: number,
    extra: { email?: string; error?: string } = {},
  ) =>
    sendSignInPage(ctx, request, reply, status, {
      action: signInAction(request),
      applicationName: authz.application.name,
      ...extra,
    });

  async function showConsent(
    request: FastifyRequest,
    reply: FastifyReply,
    authz: AuthorizationRequest,
    userId: string,
    status = 200,
  ) {
    const user = await findUserById(ctx.knex, userId);
    const csrfToken = ensureCsrfToken(request, reply, ctx.config);
    return sendPage(
      reply,
      status,
      consentPage({
        action: consentAction(request),
        csrfToken,
        applicationName: authz.application.name,
        email: user?.email ?? '',
        scopes: authz.scope.split(' '),
      }),
    );
  }

  app.get('/oauth/authorize', async (request, reply) => {
    const authz = await checkAuthorizationRequest(ctx, request.query);
    const userId = await sessionUserId(ctx.knex, request.cookies[names.session]);
    if (!userId) return showSignIn(request, reply, authz, 200);
    // A remembered consent skips the page for confidential clients only: anyone can present a
    // public client's id, so its user confirms every time (RFC 6749 10.2, RFC 8252 8.6).
    if (
      authz.application.confidential &&
      (await hasConsent(ctx.knex, userId, authz.application.clientId, authz.scope.split(' ')))
    ) {
      return issueCode(request, reply, authz, userId, 302);
    }
    return showConsent(request, reply, authz, userId);
  });

  app.post('/oauth/authorize/sign-in', async (request, reply) => {
    const authz = await checkAuthorizationRequest(ctx, request.query);
    return handleSignInPost(ctx, request, reply, {
      clientId: authz.application.clientId,
      render: (status, values) => showSignIn(request, reply, authz, status, values),
      onSignedIn: () => reply.redirect(`/oauth/authorize?${queryString(request)}`, 303),
    });
  });

  app.post('/oauth/authorize', async (request, reply) => {
    const authz = await checkAuthorizationRequest(ctx, request.query);
    const userId = await sessionUserId(ctx.knex, request.cookies[names.session]);
    if (!userId) return showSignIn(request, reply, authz, 401, { error: 'Please sign in to continue.' });
    if (!csrfTokenValid(request, ctx.config, formField(request.body, 'csrf_token'))) {
      return showConsent(request, reply, authz, userId, 403);
    }
    const decision = formField(request.body, 'decision');
    const clientId = authz.application.clientId;
    if (decision === 'approve') {
      await grantConsent(ctx.knex, userId, clientId, authz.scope.split(' '));
      await audit(ctx.knex, 'consent.granted', {
        userId,
        clientId,
        ip: request.ip,
        detail: { scope: authz.scope },
      });
      return issueCode(request, reply, authz, userId, 303);
    }
    if (decision === 'deny') {
      await audit(ctx.knex, 'consent.denied', { userId, clientId, ip: request.ip });
      throw new RedirectableError(
        new OAuthError('access_denied', 'The user denied the request'),
        authz.redirectUri,
        authz.state,
      );
    }
    return showConsent(request, reply, authz, userId, 400);
  });
}
