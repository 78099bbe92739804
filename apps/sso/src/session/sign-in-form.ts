/**
 * The sign-in form post, shared by the application pages (/sign-in) and the authorization flow
 * (/oauth/authorize/sign-in). Rules, in order:
 * - the CSRF token must match its cookie, else the form again with 403 (session expired);
 * - email and password are both required, else the form again with 400;
 * - attemptSignIn decides (throttling with Retry-After, audit); a refusal shows the form again
 *   with its status and message;
 * - on success a session cookie is set and the caller continues (`onSignedIn`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthContext } from '../oauth/context';
import { signInPage } from '../pages/authorize-pages';
import { formField, sendPage } from '../pages/page-plugin';
import {
  cookieNames,
  cookieOptions,
  createSession,
  csrfTokenValid,
  ensureCsrfToken,
  SESSION_TTL_SECONDS,
} from './cookies';
import { attemptSignIn } from './sign-in';

export interface SignInFormHandlers {
  /** the client the sign-in is for (authorization flow), null on the application pages */
  clientId: string | null;
  /** shows the form again with a status and the email typed */
  render(status: number, values: { email: string; error: string }): unknown;
  onSignedIn(): unknown;
}

export async function handleSignInPost(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  handlers: SignInFormHandlers,
): Promise<unknown> {
  const email = (formField(request.body, 'email') ?? '').trim();
  if (!csrfTokenValid(request, ctx.config, formField(request.body, 'csrf_token'))) {
    return handlers.render(403, { email, error: 'Your session expired. Please sign in again.' });
  }
  const password = formField(request.body, 'password') ?? '';
  if (!email || !password)
    return handlers.render(400, { email, error: 'Enter your email address and password.' });

  const outcome = await attemptSignIn(ctx, { email, password, ip: request.ip, clientId: handlers.clientId });
  if (!outcome.ok) {
    if (outcome.retryAfter) reply.header('retry-after', String(outcome.retryAfter));
    return handlers.render(outcome.status, { email, error: outcome.message });
  }
  reply.setCookie(
    cookieNames(ctx.config).session,
    await createSession(ctx.knex, outcome.userId),
    cookieOptions(ctx.config, SESSION_TTL_SECONDS),
  );
  return handlers.onSignedIn();
}

/**
 * The sign-in form with a fresh CSRF token: posted to `action`, naming the application signed in
 * to, with the email typed and the error of a refused attempt when shown again.
 */
export function sendSignInPage(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  form: { action: string; applicationName: string; email?: string; error?: string },
) {
  const csrfToken = ensureCsrfToken(request, reply, ctx.config);
  return sendPage(reply, status, signInPage({ ...form, csrfToken }));
}
