/**
 * The application pages of a signed-in user: the list, the register/edit form (every field
 * labelled, problems listed in an alert linked to the form), and the page that shows a new
 * client secret once. Every form carries the CSRF token.
 */
import { GRANT_TYPES_SUPPORTED, SCOPES_SUPPORTED, type Application } from '../data/applications';
import { SCOPE_DESCRIPTIONS } from './authorize-pages';
import { html, page, type Raw } from './layout';

const GRANT_LABELS: Record<string, string> = {
  authorization_code: 'Authorization code (sign-in through the browser)',
  refresh_token: 'Refresh token (stay signed in)',
  password: 'Password (scripts of the account owner)',
};

function signOut(csrfToken: string): Raw {
  return html`<form class="inline" method="post" action="/sign-out">
    <input type="hidden" name="csrf_token" value="${csrfToken}" /><button class="link" type="submit">
      Sign out
    </button>
  </form>`;
}

export function applicationListPage(input: {
  email: string;
  csrfToken: string;
  applications: Application[];
}): string {
  return page(
    'Applications',
    html`<div class="toolbar">
        <h1>Your applications</h1>
        <a class="button" href="/applications/new">Register an application</a>
      </div>
      <p>Signed in as ${input.email} · ${signOut(input.csrfToken)}</p>
      ${
        input.applications.length === 0
          ? html`<p>You have not registered an application yet.</p>`
          : html`<table>
              <caption class="hint">
                Applications that may ask your users to sign in with Fleetgraph
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client ID</th>
                  <th scope="col">Type</th>
                  <th scope="col">Redirect URIs</th>
                </tr>
              </thead>
              <tbody>
                ${input.applications.map(
                  (app) =>
                    html`<tr>
                      <td><a href="/applications/${app.clientId}">${app.name}</a></td>
                      <td><code>${app.clientId}</code></td>
                      <td>${app.confidential ? 'Confidential' : 'Public'}</td>
                      <td>${app.redirectUris.map((uri) => html`<code>${uri}</code><br />`)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }`,
    { wide: true },
  );
}

export interface ApplicationFormValues {
  name: string;
  redirectUris: string[];
  confidential: boolean;
  allowedScopes: string[];
  grantTypes: string[];
}

export function applicationFormPage(input: {
  csrfToken: string;
  values: ApplicationFormValues;
  problems: string[];
  application?: Application;
}): string {
  const editing = input.application;
  const v = input.values;
  return page(
    editing ? `Edit ${editing.name}` : 'Register an application',
    html`<p><a href="/applications">← Your applications</a></p>
      <h1>${editing ? html`Edit ${editing.name}` : 'Register an application'}</h1>
      ${editing ? html`<p>Client ID <code>${editing.clientId}</code> · ${editing.confidential ? 'Confidential' : 'Public'} client</p>` : ''}
      ${
        input.problems.length
          ? html`<div class="alert" role="alert" id="form-problems">
              <strong>Please correct:</strong>
              <ul>
                ${input.problems.map((p) => html`<li>${p}</li>`)}
              </ul>
            </div>`
          : ''
      }
      <form
        method="post"
        action="${editing ? `/applications/${editing.clientId}` : '/applications'}"
        ${input.problems.length ? html` aria-describedby="form-problems"` : ''}
      >
        <input type="hidden" name="csrf_token" value="${input.csrfToken}" />
        <label for="name">Name</label>
        <input id="name" name="name" type="text" required maxlength="100" value="${v.name}" />
        <label for="redirect_uris">Redirect URIs</label>
        <textarea id="redirect_uris" name="redirect_uris" required aria-describedby="redirect-hint">
${v.redirectUris.join('\n')}</textarea>
        <p class="hint" id="redirect-hint">
          One per line. https, or http on 127.0.0.1 / [::1] / localhost for native apps. Matched exactly.
        </p>
        ${
          editing
            ? ''
            : html`<fieldset>
                <legend>Client type</legend>
                <label
                  ><input
                    type="radio"
                    name="client_type"
                    value="confidential"
                    ${v.confidential ? html` checked` : ''}
                  />
                  Confidential: runs on a server that keeps a secret</label
                >
                <label
                  ><input
                    type="radio"
                    name="client_type"
                    value="public"
                    ${v.confidential ? '' : html` checked`}
                  />
                  Public: a browser or mobile app (no secret, PKCE required)</label
                >
              </fieldset>`
        }
        <fieldset>
          <legend>Scopes the application may ask for</legend>
          ${SCOPES_SUPPORTED.map((scope) => html`<label><input type="checkbox" name="scopes" value="${scope}" ${v.allowedScopes.includes(scope) ? html` checked` : ''} /> <span>${SCOPE_DESCRIPTIONS[scope]?.title ?? scope} (<code>${scope}</code>)</span></label>`)}
        </fieldset>
        <fieldset>
          <legend>Grants</legend>
          ${GRANT_TYPES_SUPPORTED.map((grant) => html`<label><input type="checkbox" name="grant_types" value="${grant}" ${v.grantTypes.includes(grant) ? html` checked` : ''} /> ${GRANT_LABELS[grant] ?? grant}</label>`)}
        </fieldset>
        <button class="primary" type="submit">${editing ? 'Save changes' : 'Register application'}</button>
      </form>
      ${
        editing
          ? html`<div class="row-actions">
              ${editing.confidential ? html`<form method="post" action="/applications/${editing.clientId}/rotate-secret"><input type="hidden" name="csrf_token" value="${input.csrfToken}" /><button class="secondary" type="submit">Generate a new client secret</button></form>` : ''}
              <form method="post" action="/applications/${editing.clientId}/delete">
                <input type="hidden" name="csrf_token" value="${input.csrfToken}" /><button
                  class="danger"
                  type="submit"
                >
                  Delete application
                </button>
              </form>
            </div>`
          : ''
      }`,
    { wide: true },
  );
}

export function applicationSecretPage(input: {
  application: Application;
  clientSecret: string | null;
  created: boolean;
}): string {
  const { application } = input;
  return page(
    input.created ? 'Application registered' : 'New client secret',
    html`<h1>
        ${input.created ? html`${application.name} is registered` : html`New client secret for ${application.name}`}
      </h1>
      <label for="client-id">Client ID</label>
      <code class="secret" id="client-id">${application.clientId}</code>
      ${
        input.clientSecret
          ? html`<label for="client-secret">Client secret</label>
              <code class="secret" id="client-secret">${input.clientSecret}</code>
              <div class="notice" role="status">
                Copy the client secret now. It is shown only this once and stored only as a hash; if you lose
                it, generate a new one.${input.created ? '' : ' The previous secret no longer works.'}
              </div>`
          : html`<p>This is a public client: it has no secret and must use PKCE (S256).</p>`
      }
      <p><a href="/applications">Back to your applications</a></p>`,
    { wide: true },
  );
}
