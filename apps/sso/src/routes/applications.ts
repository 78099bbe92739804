/**
 * Application registration pages for a signed-in user (and the standalone sign-in behind them).
 * - GET/POST /sign-in?next=/applications...: the sign-in page and its form (CSRF, throttling,
 *   session/sign-in.ts); `next` may only name a path under /applications (no open redirect);
 * - POST /sign-out: ends the session (CSRF);
 * - every /applications page needs a session (else 303 to /sign-in?next=...) and shows or
 *   changes only the user's own applications (another's is 404, as if it did not exist);
 * - every POST needs the CSRF token (403 otherwise, nothing changed);
 * - register and rotate-secret show the client secret once (stored hashed); the settings are
 *   validated (data/application-input.ts) and every problem listed; the client type is fixed at
 *   registration; delete also revokes the application's tokens (published to the revocation list);
 * - every change is audited.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateApplicationSettings } from '../data/application-input';
import {
  createApplication,
  deleteApplication,
  findApplication,
  listApplications,
  rotateClientSecret,
  updateApplication,
} from '../data/applications';
import { audit } from '../data/audit';
import { revokeTokensOf } from '../data/refresh-tokens';
import { findUserById } from '../data/users';
import type { OAuthContext } from '../oauth/context';
import { publishRevocations } from '../oauth/revoke';
import {
  applicationFormPage,
  applicationListPage,
  applicationSecretPage,
  type ApplicationFormValues,
} from '../pages/application-pages';
import { errorPage } from '../pages/authorize-pages';
import { formField, formFields, pageDefaults, routeParam, sendPage } from '../pages/page-plugin';
import {
  cookieNames,
  cookieOptions,
  csrfTokenValid,
  deleteSession,
  ensureCsrfToken,
  sessionUserId,
} from '../session/cookies';
import { handleSignInPost, sendSignInPage } from '../session/sign-in-form';

const NEXT_PATH = /^\/applications(\/[A-Za-z0-9_-]+){0,2}$/;

function safeNext(value: unknown): string {
  return typeof value === 'string' && NEXT_PATH.test(value) ? value : '/applications';
}

function formValues(body: unknown, fallbackConfidential = true): ApplicationFormValues {
  const type = formField(body, 'client_type');
  return {
    name: formField(body, 'name') ?? '',
    redirectUris: (formField(body, 'redirect_uris') ?? '')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
    confidential: type === undefined ? fallbackConfidential : type !== 'public',
    allowedScopes: formFields(body, 'scopes'),
    grantTypes: formFields(body, 'grant_types'),
  };
}

/** What every page of the application pages shares: errors, sign-in, the session's user and their applications. */
function applicationPages(ctx: OAuthContext) {
  const names = cookieNames(ctx.config);
  const csrfOk = (request: FastifyRequest) =>
    csrfTokenValid(request, ctx.config, formField(request.body, 'csrf_token'));
  const pages = {
    names,
    notFound: (reply: FastifyReply) =>
      sendPage(reply, 404, errorPage('Application not found', 'There is no such application among yours.')),
    forbidden: (reply: FastifyReply) =>
      sendPage(reply, 403, errorPage('This form expired', 'Go back, reload the page and try again.')),
    csrfOk,
    showSignIn: (
      request: FastifyRequest,
      reply: FastifyReply,
      next: string,
      status: number,
      extra: { email?: string; error?: string } = {},
    ) =>
      sendSignInPage(ctx, request, reply, status, {
        action: `/sign-in?next=${encodeURIComponent(next)}`,
        applicationName: 'Fleetgraph applications',
        ...extra,
      }),
    /** The signed-in user, or a redirect to the sign-in page (undefined: the reply is sent). */
    async signedInUser(request: FastifyRequest, reply: FastifyReply) {
      const userId = await sessionUserId(ctx.knex, request.cookies[names.session]);
      const user = userId ? await findUserById(ctx.knex, userId) : undefined;
      if (!user) {
        const next = safeNext(request.url.split('?')[0]);
        await reply.redirect(`/sign-in?next=${encodeURIComponent(next)}`, 303);
        return undefined;
      }
      return user;
    },
    async ownApplication(userId: string, clientId: string | undefined) {
      if (clientId === undefined) return undefined;
      const application = await findApplication(ctx.knex, clientId);
      return application && application.ownerUserId === userId ? application : undefined;
    },
    /**
     * A change to one of the user's applications: signed in, the form's CSRF token valid, the
     * application theirs. Undefined when the reply was sent (sign-in, 403 or 404).
     */
    async change(request: FastifyRequest, reply: FastifyReply) {
      const user = await pages.signedInUser(request, reply);
      if (!user) return undefined;
      if (!csrfOk(request)) return void (await pages.forbidden(reply));
      const application = await pages.ownApplication(user.id, routeParam(request, 'clientId'));
      if (!application) return void (await pages.notFound(reply));
      return { user, application };
    },
    audit: (request: FastifyRequest, userId: string, clientId: string, action: string) =>
      audit(ctx.knex, 'admin.application', { userId, clientId, ip: request.ip, detail: { action } }),
  };
  return pages;
}

type Pages = ReturnType<typeof applicationPages>;

/** Sign-in and sign-out of the application pages (a session of the SSO itself). */
function signInRoutes(app: FastifyInstance, ctx: OAuthContext, pages: Pages): void {
  app.get('/sign-in', async (request, reply) =>
    pages.showSignIn(request, reply, safeNext((request.query as Record<string, unknown>).next), 200),
  );

  app.post('/sign-in', async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    return handleSignInPost(ctx, request, reply, {
      clientId: null,
      render: (status, values) => pages.showSignIn(request, reply, next, status, values),
      onSignedIn: () => reply.redirect(next, 303),
    });
  });

  app.post('/sign-out', async (request, reply) => {
    if (!pages.csrfOk(request)) return pages.forbidden(reply);
    const session = request.cookies[pages.names.session];
    const userId = await sessionUserId(ctx.knex, session);
    await deleteSession(ctx.knex, session);
    if (userId) await audit(ctx.knex, 'sign_out', { userId, ip: request.ip });
    reply.clearCookie(pages.names.session, cookieOptions(ctx.config));
    return reply.redirect('/sign-in', 303);
  });
}

/** The user's applications: the list, the form for a new one, registering it, and one's form. */
function applicationPageRoutes(app: FastifyInstance, ctx: OAuthContext, pages: Pages): void {
  app.get('/applications', async (request, reply) => {
    const user = await pages.signedInUser(request, reply);
    if (!user) return reply;
    const csrfToken = ensureCsrfToken(request, reply, ctx.config);
    return sendPage(
      reply,
      200,
      applicationListPage({
        email: user.email,
        csrfToken,
        applications: await listApplications(ctx.knex, user.id),
      }),
    );
  });

  app.get('/applications/new', async (request, reply) => {
    const user = await pages.signedInUser(request, reply);
    if (!user) return reply;
    const csrfToken = ensureCsrfToken(request, reply, ctx.config);
    const values = {
      name: '',
      redirectUris: [],
      confidential: true,
      allowedScopes: ['public'],
      grantTypes: ['authorization_code', 'refresh_token'],
    };
    return sendPage(reply, 200, applicationFormPage({ csrfToken, values, problems: [] }));
  });

  app.post('/applications', async (request, reply) => {
    const user = await pages.signedInUser(request, reply);
    if (!user) return reply;
    if (!pages.csrfOk(request)) return pages.forbidden(reply);
    const values = formValues(request.body);
    const { settings, problems } = validateApplicationSettings(values);
    if (problems.length > 0) {
      return sendPage(
        reply,
        400,
        applicationFormPage({ csrfToken: ensureCsrfToken(request, reply, ctx.config), values, problems }),
      );
    }
    const { application, clientSecret } = await createApplication(ctx.knex, {
      ...settings,
      confidential: values.confidential,
      ownerUserId: user.id,
    });
    await pages.audit(request, user.id, application.clientId, 'create');
    return sendPage(reply, 201, applicationSecretPage({ application, clientSecret, created: true }));
  });

  app.get('/applications/:clientId', async (request, reply) => {
    const user = await pages.signedInUser(request, reply);
    if (!user) return reply;
    const application = await pages.ownApplication(user.id, routeParam(request, 'clientId'));
    if (!application) return pages.notFound(reply);
    const csrfToken = ensureCsrfToken(request, reply, ctx.config);
    return sendPage(
      reply,
      200,
      applicationFormPage({ csrfToken, values: application, problems: [], application }),
    );
  });
}

/** Changes to one of the user's applications: its settings, a new secret, deletion. */
function applicationChangeRoutes(app: FastifyInstance, ctx: OAuthContext, pages: Pages): void {
  app.post('/applications/:clientId', async (request, reply) => {
    const change = await pages.change(request, reply);
    if (!change) return reply;
    const { user, application } = change;
    const values = formValues(request.body, application.confidential);
    const { settings, problems } = validateApplicationSettings(values);
    if (problems.length > 0) {
      const csrfToken = ensureCsrfToken(request, reply, ctx.config);
      return sendPage(
        reply,
        400,
        applicationFormPage({
          csrfToken,
          values: { ...values, confidential: application.confidential },
          problems,
          application,
        }),
      );
    }
    await updateApplication(ctx.knex, application.clientId, settings);
    ctx.applications?.invalidate(application.clientId);
    await pages.audit(request, user.id, application.clientId, 'update');
    return reply.redirect('/applications', 303);
  });

  app.post('/applications/:clientId/rotate-secret', async (request, reply) => {
    const change = await pages.change(request, reply);
    if (!change) return reply;
    const { user, application } = change;
    const secret = await rotateClientSecret(ctx.knex, application.clientId);
    ctx.applications?.invalidate(application.clientId);
    if (!secret) return pages.notFound(reply);
    await pages.audit(request, user.id, application.clientId, 'rotate-secret');
    return sendPage(reply, 200, applicationSecretPage({ application, clientSecret: secret, created: false }));
  });

  app.post('/applications/:clientId/delete', async (request, reply) => {
    const change = await pages.change(request, reply);
    if (!change) return reply;
    const { user, application } = change;
    await publishRevocations(ctx, await revokeTokensOf(ctx.knex, { clientId: application.clientId }));
    await deleteApplication(ctx.knex, application.clientId);
    ctx.applications?.invalidate(application.clientId);
    await pages.audit(request, user.id, application.clientId, 'delete');
    return reply.redirect('/applications', 303);
  });
}

export async function applicationRoutes(app: FastifyInstance, ctx: OAuthContext): Promise<void> {
  await pageDefaults(app);
  const pages = applicationPages(ctx);
  signInRoutes(app, ctx, pages);
  applicationPageRoutes(app, ctx, pages);
  applicationChangeRoutes(app, ctx, pages);
}
