/**
 * End to end with a real relying party: openid-client v6 discovers the SSO over HTTP, runs the
 * authorization-code flow with PKCE while headless Chromium (Debian's /usr/bin/chromium, driven
 * by playwright-core) signs in and approves through the real HTML pages, then refreshes, calls
 * /api/v1/users/me, introspects and revokes. A Fastify relying party using @fastify/oauth2 (with
 * discovery and PKCE) completes the same flow. Skipped when Chromium is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import oauth2, { type OAuth2Namespace } from '@fastify/oauth2';
import Fastify from 'fastify';
import * as oidc from 'openid-client';
import { chromium, type Browser } from 'playwright-core';
import { insertApplication, insertUser, startSso, type SsoHarness } from './test-harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe(
  'relying party end to end (openid-client + headless Chromium)',
  { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  () => {
    let sso: SsoHarness;
    let browser: Browser;
    let callbackServer: Server;
    let issuer: string;
    let redirectUri: string;

    before(async () => {
      const port = await freePort();
      issuer = `http://127.0.0.1:${port}`;
      sso = await startSso('relying_party', { SSO_ISSUER: issuer });
      await sso.app.listen({ port, host: '127.0.0.1' });
      // The relying party's callback page: it only has to exist; the test reads its URL.
      callbackServer = createServer((_req, res) =>
        res.end('<!doctype html><title>Back at the app</title><p>done</p>'),
      );
      await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
      redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    });

    after(async () => {
      await browser?.close();
      await new Promise((resolve) => callbackServer?.close(resolve));
      await sso?.close();
    });

    test('discovery, authorization code + PKCE through the real pages, refresh, profile, introspection, revocation', async () => {
      const user = await insertUser(sso.knex, { fullName: 'Grace Hopper' });
      const app = await insertApplication(sso.knex, {
        name: 'Dispatch Console',
        redirectUris: [redirectUri],
        allowedScopes: ['public', 'read'],
      });

      const config = await oidc.discovery(
        new URL(issuer),
        app.clientId,
        app.clientSecret!,
        oidc.ClientSecretBasic(app.clientSecret!),
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
      assert.equal(config.serverMetadata().issuer, issuer);

      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'public read',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(authorizationUrl.href);
      assert.equal(await page.title(), 'Sign in · Fleetgraph');
      await page.getByLabel('Email address').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/oauth\/authorize\?/);
      assert.match(await page.locator('h1').innerText(), /Dispatch Console wants to access your account/);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(redirectUri));
      const callbackUrl = new URL(page.url());
      await context.close();

      const tokens = await oidc.authorizationCodeGrant(
        config,
        callbackUrl,
        { pkceCodeVerifier: verifier, expectedState: state },
        { redirect_uri: redirectUri },
      );
      assert.equal(tokens.token_type, 'bearer');
      assert.equal(tokens.scope, 'public read');
      assert.ok(tokens.refresh_token);

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      assert.notEqual(refreshed.access_token, tokens.access_token);

      const profile = await oidc.fetchProtectedResource(
        config,
        refreshed.access_token,
        new URL(config.serverMetadata().userinfo_endpoint!),
        'GET',
      );
      assert.equal(profile.status, 200);
      assert.deepEqual(await profile.json(), {
        uid: user.id,
        full_name: 'Grace Hopper',
        email: user.email,
        language: 'en',
      });

      const introspection = await oidc.tokenIntrospection(config, refreshed.access_token);
      assert.equal(introspection.active, true);
      assert.equal(introspection.client_id, app.clientId);

      await oidc.tokenRevocation(config, refreshed.refresh_token!);
      assert.equal(
        (await oidc.tokenIntrospection(config, refreshed.access_token)).active,
        false,
        'revoking the refresh token revoked its family',
      );
      // openid-client turns the 401 + WWW-Authenticate: Bearer error="invalid_token" into an error.
      await assert.rejects(
        oidc.fetchProtectedResource(
          config,
          refreshed.access_token,
          new URL(config.serverMetadata().userinfo_endpoint!),
          'GET',
        ),
        (error: any) => {
          assert.equal(error.status, 401);
          assert.equal(error.cause[0].parameters.error, 'invalid_token');
          return true;
        },
      );
    });

    test('@fastify/oauth2 (discovery, PKCE, state cookie) completes the same flow', async () => {
      const user = await insertUser(sso.knex, { fullName: 'Katherine Johnson' });
      const rp = Fastify();
      const rpPort = await freePort();
      const rpBase = `http://127.0.0.1:${rpPort}`;
      const app = await insertApplication(sso.knex, {
        name: 'Fastify Portal',
        redirectUris: [`${rpBase}/callback`],
        allowedScopes: ['public'],
      });
      await rp.register(oauth2, {
        name: 'fleetgraph',
        scope: ['public'],
        credentials: {
          client: { id: app.clientId, secret: app.clientSecret! },
          options: { authorizationMethod: 'header' },
        },
        discovery: { issuer },
        pkce: 'S256',
        startRedirectPath: '/login',
        callbackUri: `${rpBase}/callback`,
      });
      rp.get('/callback', async (request) => {
        const fleetgraph = (rp as unknown as { fleetgraph: OAuth2Namespace }).fleetgraph;
        const { token } = await fleetgraph.getAccessTokenFromAuthorizationCodeFlow(request);
        const profile = await fetch(`${issuer}/api/v1/users/me`, {
          headers: { authorization: `Bearer ${token.access_token}` },
        });
        const refreshed = await fleetgraph.getNewAccessTokenUsingRefreshToken(token, {});
        return {
          profile: await profile.json(),
          refreshedScope: (refreshed.token as { scope?: string }).scope,
          sameToken: refreshed.token.access_token === token.access_token,
        };
      });
      await rp.listen({ port: rpPort, host: '127.0.0.1' });
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${rpBase}/login`);
        await page.getByLabel('Email address').fill(user.email);
        await page.getByLabel('Password').fill(user.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL((url) => url.href.startsWith(`${rpBase}/callback`));
        const result = JSON.parse(await page.locator('body').innerText());
        await context.close();
        assert.deepEqual(result.profile, {
          uid: user.id,
          full_name: 'Katherine Johnson',
          email: user.email,
          language: 'en',
        });
        assert.equal(result.refreshedScope, 'public');
        assert.equal(result.sameToken, false);
      } finally {
        await rp.close();
      }
    });
  },
);
