/**
 * The pages of the authorization flow: sign-in, consent, and the error page shown when the
 * client or redirect_uri cannot be trusted (never a redirect). Forms post back with the
 * authorization request in the action's query string and a CSRF token in a hidden field.
 */
import { SCOPES } from '@fleetgraph/auth';
import { html, page } from './layout';

/** What each scope unlocks, from the one catalog the graph enforces (libs/auth scopes.ts). */
export const SCOPE_DESCRIPTIONS: Record<string, { title: string; text: string }> = Object.fromEntries(
  SCOPES.map((scope) => [scope.name, { title: scope.title, text: scope.description }]),
);

export function signInPage(input: {
  action: string;
  csrfToken: string;
  applicationName: string;
  email?: string;
  error?: string;
}): string {
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
      <p>to continue to <strong class="app">${input.applicationName}</strong></p>
      ${input.error ? html`<div class="alert" role="alert" id="form-error">${input.error}</div>` : ''}
      <form method="post" action="${input.action}" novalidate>
        <input type="hidden" name="csrf_token" value="${input.csrfToken}" />
        <label for="email">Email address</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          autofocus
          value="${input.email ?? ''}"
          ${input.error ? html` aria-describedby="form-error"` : ''}
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button class="primary" type="submit">Sign in</button>
      </form>`,
  );
}

export function consentPage(input: {
  action: string;
  csrfToken: string;
  applicationName: string;
  email: string;
  scopes: string[];
}): string {
  return page(
    'Allow access',
    html`<h1><span class="app">${input.applicationName}</span> wants to access your account</h1>
      <p>Signed in as ${input.email}</p>
      <ul class="scopes" aria-label="Requested permissions">
        ${input.scopes.map((scope) => {
          const described = SCOPE_DESCRIPTIONS[scope] ?? { title: scope, text: '' };
          return html`<li><strong>${described.title}</strong><span>${described.text}</span></li>`;
        })}
      </ul>
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf_token" value="${input.csrfToken}" />
        <div class="actions">
          <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
          <button class="primary" type="submit" name="decision" value="approve">Allow</button>
        </div>
      </form>
      <small
        >If you allow, your choice is remembered: ${input.applicationName} will not ask again for these
        permissions.</small
      >`,
  );
}

export function errorPage(title: string, message: string): string {
  return page(
    title,
    html`<h1>${title}</h1>
      <div class="alert" role="alert">${message}</div>
      <p>Return to the application and try again, or contact its developer.</p>`,
  );
}
