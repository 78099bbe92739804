/**
 * The explorer in a real browser against the real platform (SSO, subgraphs, gateway on
 * PostgreSQL): headless Debian Chromium (playwright-core) opens GraphiQL at the gateway, signs in
 * through the SSO's pages with the demo login (authorization code + PKCE, consent), lands back
 * in GraphiQL, runs `{ account { email } }` and sees the demo user's data; then signs out, which
 * revokes the token. Checks along the way: no CSP violation, no token in any URL, the session
 * cookie HttpOnly + Secure + SameSite=Strict. Skipped when Chromium is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { postGraphQL } from '@fleetgraph/testing';
import { startStack, type Stack } from './stack';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-quic',
  '--disable-component-update',
  '--disable-sync',
];

describe(
  'explorer sign-in in headless Chromium',
  { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  () => {
    let stack: Stack;
    let browser: Browser;
    before(async () => {
      stack = await startStack('e2e_explorer');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    });
    after(async () => {
      await browser?.close();
      await stack?.close();
    });

    test('open GraphiQL, sign in with the demo login, run { account { email } }, sign out', async () => {
      const { gateway, explorer, sso } = stack.platform.urls;
      const context = await browser.newContext();
      const page = await context.newPage();
      const consoleProblems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content Security Policy|Refused to/.test(message.text()))
          consoleProblems.push(message.text());
      });
      page.on('pageerror', (error) => consoleProblems.push(`page error: ${error.message}`));
      const urls: string[] = [];
      const bearerTokens = new Set<string>();
      const failed: string[] = [];
      page.on('response', (response) => {
        // the SSO's pages have no favicon; the browser asks for one anyway
        if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
          failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('request', (request) => {
        urls.push(request.url());
        const authorization = request.headers().authorization;
        if (request.url() === `${gateway}/graphql` && authorization?.startsWith('Bearer '))
          bearerTokens.add(authorization.slice('Bearer '.length));
      });

      // A browser asking for /graphql is sent to the explorer.
      await page.goto(`${gateway}/graphql`);
      assert.equal(page.url(), explorer);
      assert.equal(await page.title(), 'Fleetgraph explorer');
      await page.getByText('Not signed in').waitFor();
      await page.locator('.graphiql-container').waitFor();

      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.href.startsWith(`${sso}/oauth/authorize`));
      // Authorization code with PKCE (S256) and a state, as @fastify/oauth2 is configured.
      const authorize = new URL(page.url());
      assert.equal(authorize.searchParams.get('response_type'), 'code');
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.match(authorize.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.ok((authorize.searchParams.get('state') ?? '').length >= 16, 'a state is sent');
      assert.equal(authorize.searchParams.get('redirect_uri'), `${gateway}/explorer/callback`);
      assert.equal(await page.title(), 'Sign in · Fleetgraph');
      await page.getByLabel('Email address').fill(DEMO_EMAIL);
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/oauth\/authorize\?/);
      assert.match(await page.locator('h1').innerText(), /Fleetgraph explorer wants to access your account/);
      await page.getByRole('button', { name: 'Allow' }).click();

      await page.waitForURL(explorer);
      await page.getByText(`Signed in as`).waitFor();
      assert.match(await page.locator('#fg-user').innerText(), new RegExp(DEMO_EMAIL.replace('.', '\\.')));
      await page.getByRole('button', { name: 'Sign out' }).waitFor();

      // Type the query into GraphiQL's editor and run it.
      await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
      await page.evaluate(() => {
        // Runs in the browser; this test project is compiled without the DOM library.
        const { document } = globalThis as unknown as {
          document: { querySelector(selector: string): unknown };
        };
        const editor = document.querySelector('.graphiql-query-editor .CodeMirror') as {
          CodeMirror: { setValue(text: string): void };
        };
        editor.CodeMirror.setValue('{ account { email } }');
      });
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.graphiql-response .CodeMirror-code');
      await result.getByText(DEMO_EMAIL).waitFor({ timeout: 15_000 });
      const shown = JSON.parse(
        (await page.evaluate(() => {
          const { document } = globalThis as unknown as {
            document: { querySelector(selector: string): unknown };
          };
          const response = document.querySelector('.graphiql-response .CodeMirror') as {
            CodeMirror: { getValue(): string };
          };
          return response.CodeMirror.getValue();
        })) as string,
      );
      // The answer, with the cost report every charged answer carries.
      assert.deepEqual(shown.data, { account: { email: DEMO_EMAIL } });
      assert.equal(typeof shown.extensions?.cost?.requestedQueryCost, 'number');

      // GraphiQL sent the signed-in user's token; it works outside the browser too.
      assert.equal(bearerTokens.size, 1, 'one access token, sent as Authorization: Bearer');
      const [token] = [...bearerTokens];
      const direct = await postGraphQL(stack.platform.urls.graphql, '{ account { email } }', { token });
      assert.deepEqual(direct.data, { account: { email: DEMO_EMAIL } });

      // The token and the code never appear in a URL the page can see or a request it made.
      for (const url of urls) {
        assert.ok(!url.includes(token!), `token in ${url}`);
        assert.ok(!/[?&](access_token|refresh_token)=/.test(url), url);
      }
      const cookies = await context.cookies(gateway);
      const session = cookies.find((cookie) => cookie.name === '__Host-fg-explorer');
      assert.ok(session, `session cookie set: ${cookies.map((c) => c.name).join(', ')}`);
      assert.equal(session.httpOnly, true);
      assert.equal(session.secure, true);
      assert.equal(session.sameSite, 'Strict');
      assert.ok(!session.value.includes(token!.split('.')[1]!), 'the cookie holds the token encrypted');
      assert.ok(
        !cookies.some((cookie) => /oauth2-(redirect-state|code-verifier)/.test(cookie.name)),
        'the state and PKCE verifier cookies are gone after the callback',
      );

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('Not signed in').waitFor();
      assert.equal(
        (await context.cookies(gateway)).some((cookie) => cookie.name === '__Host-fg-explorer'),
        false,
      );
      const afterSignOut = await postGraphQL(stack.platform.urls.graphql, '{ account { email } }', { token });
      assert.equal(afterSignOut.status, 401, 'signing out revoked the token');

      // Before sign-in GraphiQL's schema request is refused (401); nothing else may fail.
      assert.deepEqual(
        failed.filter((line) => line !== `401 ${gateway}/graphql`),
        [],
      );
      assert.deepEqual(
        consoleProblems.filter((text) => !/Failed to load resource/.test(text)),
        [],
      );
      await context.close();
    });
  },
);
