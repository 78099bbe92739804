/**
 * Test kit for the SSO: a throwaway database, the app on it (through inject, no port), and
 * helpers to add users and call the token endpoint.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import { createHash, randomBytes } from 'node:crypto';
import { buildApp, type BuildOptions } from './app';
import { createApplication, type NewApplication } from './data/applications';
import { loadSsoConfig, type SsoConfig } from './config';
import { hashPassword } from './passwords';

export const TEST_ISSUER = 'http://sso.test';

export interface SsoHarness {
  app: FastifyInstance;
  knex: Knex;
  database: TestDatabase;
  config: SsoConfig & { databaseUrl: string };
  close(): Promise<void>;
}

export async function startSso(
  label: string,
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<SsoHarness> {
  const database = await createTestDatabase(`sso_${label}`);
  const config = {
    ...loadSsoConfig({ LOG_LEVEL: 'silent', SSO_ISSUER: TEST_ISSUER, ...env }),
    databaseUrl: database.url,
  };
  let app: FastifyInstance | undefined;
  const knex = createKnex({ url: database.url });
  try {
    app = await buildApp(config, options);
  } catch (error) {
    await knex.destroy();
    await database.drop();
    throw error;
  }
  return {
    app,
    knex,
    database,
    config,
    async close() {
      await app.close();
      await knex.destroy();
      await database.drop();
    },
  };
}

export interface TestUserInput {
  email?: string;
  password?: string;
  fullName?: string;
  language?: string;
  disabled?: boolean;
}

export async function insertUser(knex: Knex, input: TestUserInput = {}) {
  const user = {
    id: randomUUID(),
    email: input.email ?? `user-${randomUUID().slice(0, 8)}@example.test`,
    password: input.password ?? 'correct horse battery staple',
    fullName: input.fullName ?? 'Test User',
    language: input.language ?? 'en',
    disabled: input.disabled ?? false,
  };
  await knex('sso.users').insert({
    id: user.id,
    email: user.email,
    password_hash: await hashPassword(user.password),
    full_name: user.fullName,
    language: user.language,
    disabled: user.disabled,
  });
  return user;
}

/** POST /oauth/token as a form (the default) or as JSON. */
export function postToken(
  app: FastifyInstance,
  params: Record<string, string>,
  options: { json?: boolean; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      accept: 'application/json',
      'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
      ...options.headers,
    },
    payload: options.json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
  });
}

export function decodePart(token: string, index: 0 | 1): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8'));
}

export const REDIRECT_URI = 'https://app.example.test/callback';

/** Registers an application (confidential unless told) and returns its credentials. */
export async function insertApplication(knex: Knex, input: Partial<NewApplication> = {}) {
  const { application, clientSecret } = await createApplication(knex, {
    name: input.name ?? 'Test App',
    redirectUris: input.redirectUris ?? [REDIRECT_URI],
    confidential: input.confidential ?? true,
    allowedScopes: input.allowedScopes ?? ['public', 'read'],
    grantTypes: input.grantTypes ?? ['authorization_code', 'refresh_token', 'password'],
    ownerUserId: input.ownerUserId ?? null,
  });
  return { clientId: application.clientId, clientSecret: clientSecret ?? undefined, application };
}

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The hidden csrf_token of a page's form. */
export function csrfFrom(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no csrf_token in page: ${html.slice(0, 300)}`);
  return match[1]!;
}

export function formActionFrom(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error('no form in page');
  return match[1]!.replace(/&amp;/g, '&');
}

/** A cookie-keeping client over app.inject, like a browser without JavaScript. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  private remember(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(url: string) {
    return this.remember(
      await this.app.inject({ method: 'GET', url, headers: this.cookieHeader(), remoteAddress: this.ip }),
    );
  }

  async post(url: string, form: Record<string, string>) {
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
        remoteAddress: this.ip,
      }),
    );
  }
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  return `/oauth/authorize?${query}`;
}

/**
 * Runs the browser part of the flow: authorize -> sign-in page -> sign in -> (consent page ->
 * approve) -> redirect. Returns the final redirect's URL.
 */
export async function signInAndApprove(
  browser: Browser,
  url: string,
  user: { email: string; password: string },
): Promise<URL> {
  let res = await browser.get(url);
  if (res.statusCode === 200 && res.body.includes('name="password"')) {
    res = await browser.post(formActionFrom(res.body), {
      csrf_token: csrfFrom(res.body),
      email: user.email,
      password: user.password,
    });
    if (res.statusCode !== 303)
      throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
    res = await browser.get(String(res.headers.location));
  }
  if (res.statusCode === 200 && res.body.includes('name="decision"')) {
    res = await browser.post(formActionFrom(res.body), {
      csrf_token: csrfFrom(res.body),
      decision: 'approve',
    });
  }
  if (res.statusCode !== 302 && res.statusCode !== 303)
    throw new Error(`expected a redirect, got ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return new URL(String(res.headers.location));
}
