/**
 * The token endpoint's application cache: a client's row is read once per TTL (injected clock),
 * an edit through this SSO invalidates it at once, and a deleted application is refused at once
 * when deleted through this SSO.
 */
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { after, before, test } from 'node:test';
import { createKnex, type Knex } from '@fleetgraph/db';
import { createApplicationCache } from './data/application-cache';
import { deleteApplication, rotateClientSecret } from './data/applications';
import { insertApplication, startSso, type SsoHarness } from './test-harness';

let sso: SsoHarness;
let counted: Knex;
let queries = 0;
const caches: { close(): Promise<void> }[] = [];
before(async () => {
  sso = await startSso('application_cache', { PURGE_INTERVAL_SECONDS: '0' });
  counted = createKnex({ url: sso.database.url, onQuery: () => void (queries += 1) });
});
after(async () => {
  for (const cache of caches) await cache.close();
  await counted?.destroy();
  await sso?.close();
});

test('a client is read once per TTL, then again', async () => {
  const { clientId } = await insertApplication(sso.knex);
  const clock = { now: 0 };
  const cache = createApplicationCache(counted, {
    databaseUrl: sso.database.url,
    ttlMs: 5_000,
    now: () => clock.now,
  });
  caches.push(cache);
  queries = 0;
  assert.equal((await cache.find(clientId))?.clientId, clientId);
  assert.equal((await cache.find(clientId))?.clientId, clientId);
  assert.equal(queries, 1, 'the second lookup is served from the cache');
  clock.now = 5_000;
  await cache.find(clientId);
  assert.equal(queries, 2, 'after the TTL the row is read again');
});

test('an invalidated client is read again: a rotated secret or a deletion counts at once', async () => {
  const { clientId } = await insertApplication(sso.knex);
  const cache = createApplicationCache(counted, {
    databaseUrl: sso.database.url,
    ttlMs: 60_000,
    now: () => 0,
  });
  const before = await cache.find(clientId);
  await rotateClientSecret(sso.knex, clientId);
  cache.invalidate(clientId);
  caches.push(cache);
  assert.notEqual((await cache.find(clientId))?.clientSecretHash, before?.clientSecretHash);
  await deleteApplication(sso.knex, clientId);
  cache.invalidate(clientId);
  assert.equal(await cache.find(clientId), undefined);
});

test('a change made by another process (the admin CLI) is announced by the database and drops the entry', async () => {
  const { clientId } = await insertApplication(sso.knex);
  const announced = new EventEmitter();
  const cache = createApplicationCache(counted, {
    databaseUrl: sso.database.url,
    ttlMs: 60_000,
    now: () => 0,
    onAnnounced: (id) => announced.emit(id),
  });
  caches.push(cache);
  const before = await cache.find(clientId);
  const dropped = once(announced, clientId);
  await rotateClientSecret(sso.knex, clientId); // no invalidate(): another process did it
  await dropped;
  assert.notEqual((await cache.find(clientId))?.clientSecretHash, before?.clientSecretHash);
});

test('unknown client ids are not cached', async () => {
  const cache = createApplicationCache(counted, {
    databaseUrl: sso.database.url,
    ttlMs: 60_000,
    now: () => 0,
  });
  caches.push(cache);
  queries = 0;
  await cache.find('fg_nobody');
  await cache.find('fg_nobody');
  assert.equal(queries, 2);
});
