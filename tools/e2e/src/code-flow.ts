/**
 * A token with any scope of the catalog, as an application gets it: the authorization-code flow
 * (PKCE S256) through the running SSO's own pages, signed in and approved like a browser without
 * JavaScript would (form posts, cookies kept), then the code exchanged at /oauth/token. The
 * password grant only grants `public` and `profile`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ensureApplication } from '@fleetgraph/sso';
import { SCOPE_NAMES } from '@fleetgraph/auth';
import type { Stack } from './stack';

const REDIRECT_URI = 'https://scopes.example.test/callback';

const formField = (html: string, pattern: RegExp, what: string) => {
  const match = pattern.exec(html);
  if (!match) throw new Error(`no ${what} in page: ${html.slice(0, 300)}`);
  return match[1]!.replace(/&amp;/g, '&');
};

/** A cookie-keeping client of the SSO's pages. */
function pageClient(base: string) {
  const cookies = new Map<string, string>();
  const send = async (path: string, form?: Record<string, string>) => {
    const response = await fetch(new URL(path, base), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
    };
  };
  return send;
}

/** An access token of `email` granted exactly `scope` (space separated) through the code flow. */
export async function tokenThroughCodeFlow(
  stack: Stack,
  user: { email: string; password: string },
  scope: string,
): Promise<string> {
  const clientId = 'e2e-scopes';
  const clientSecret = randomBytes(24).toString('base64url');
  await ensureApplication(stack.knex, {
    clientId,
    clientSecret,
    name: 'Scopes test',
    redirectUris: [REDIRECT_URI],
    confidential: true,
    allowedScopes: [...SCOPE_NAMES],
    grantTypes: ['authorization_code'],
  });
  const verifier = randomBytes(32).toString('base64url');
  const page = pageClient(stack.platform.urls.sso);
  const authorize = `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope,
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;
  let answer = await page(authorize);
  const csrf = (html: string) => formField(html, /name="csrf_token" value="([^"]+)"/, 'csrf_token');
  const action = (html: string) => formField(html, /<form method="post" action="([^"]+)"/, 'form');
  if (answer.html.includes('name="password"')) {
    answer = await page(action(answer.html), { csrf_token: csrf(answer.html), ...user });
    answer = await page(answer.location!);
  }
  if (answer.html.includes('name="decision"'))
    answer = await page(action(answer.html), { csrf_token: csrf(answer.html), decision: 'approve' });
  const code = answer.location && new URL(answer.location).searchParams.get('code');
  if (!code) throw new Error(`no code: ${answer.status} ${answer.location} ${answer.html.slice(0, 300)}`);
  const response = await fetch(`${stack.platform.urls.sso}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      client_secret: clientSecret,
      code_verifier: verifier,
    }),
  });
  const body = (await response.json()) as { access_token?: string; scope?: string };
  if (!body.access_token || body.scope !== scope)
    throw new Error(`token exchange gave ${JSON.stringify(body)}`);
  return body.access_token;
}
