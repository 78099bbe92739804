/**
 * The explorer's static files, served by the gateway: each page link answers its file, cacheable
 * for a year under its content hash; a name or hash the gateway does not serve is the kit's 404.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { repoRoot } from '@fleetgraph/service-kit';
import { createTestIssuer } from '@fleetgraph/testing';
import { deadUrl, routeEverySubgraph, startTestGateway } from './testing/subgraphs';

let app: FastifyInstance;
let close: () => Promise<void>;

before(async () => {
  const dead = await deadUrl();
  const gateway = await startTestGateway(
    readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8'),
    await createTestIssuer(),
    {
      ...routeEverySubgraph(dead),
      EXPLORER_CLIENT_ID: 'fg_explorer_test',
      EXPLORER_CLIENT_SECRET: 'explorer-client-secret',
      EXPLORER_SESSION_SECRET: 'explorer-session-secret-of-32-characters!',
      EXPLORER_SSO_URL: dead.replace('/graphql', ''),
      EXPLORER_PUBLIC_URL: 'http://localhost:4000',
    },
  );
  app = gateway.app;
  close = gateway.close;
});
after(() => close?.());

async function linkedAssets(): Promise<string[]> {
  const page = await app.inject({ method: 'GET', url: '/explorer' });
  assert.equal(page.statusCode, 200, page.body.slice(0, 300));
  return [...page.body.matchAll(/\/explorer\/assets\/[\w-]+\/[\w.-]+/g)].map(([url]) => url);
}

test('every asset the explorer page links is served, immutable under its hash', async () => {
  const urls = await linkedAssets();
  assert.ok(urls.length >= 4, `the page links its scripts and stylesheets: ${urls.join(', ')}`);
  for (const url of urls) {
    const asset = await app.inject({ method: 'GET', url });
    assert.equal(asset.statusCode, 200, url);
    assert.match(String(asset.headers['content-type']), /^text\/(javascript|css)/);
    assert.match(String(asset.headers['cache-control']), /immutable/);
    assert.ok(asset.rawPayload.length > 0);
  }
});

test('an asset name or hash the gateway does not serve is the 404 of every other path', async () => {
  const [url] = await linkedAssets();
  const [, , , hash, name] = url!.split('/');
  for (const missing of [
    `/explorer/assets/${'0'.repeat(hash!.length)}/${name}`,
    `/explorer/assets/${hash}/nothing.js`,
  ]) {
    const answer = await app.inject({ method: 'GET', url: missing });
    assert.equal(answer.statusCode, 404, missing);
    assert.deepEqual(answer.json(), { error: 'not_found', message: `No route for GET ${missing}` });
  }
});
