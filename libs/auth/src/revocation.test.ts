import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRevocationList, DEFAULT_REVOCATION_CACHE_MS } from './revocation';

/** The list's clock (epoch ms): tests move it instead of waiting. */
const T0 = 1_800_000_000_000;
const S0 = T0 / 1000;

test('memory mode: a revoked jti is revoked until its token expires, by the injected clock', async () => {
  const clock = { now: T0 };
  const list = createRevocationList({ cacheMs: 0, now: () => clock.now });
  assert.equal(await list.isRevoked('a'), false);
  await list.revoke('a', S0 + 60);
  assert.equal(await list.isRevoked('a'), true);
  assert.equal(await list.isRevoked('b'), false, 'only the revoked jti');
  clock.now = T0 + 59_000;
  assert.equal(await list.isRevoked('a'), true);
  clock.now = T0 + 60_000;
  assert.equal(await list.isRevoked('a'), false, 'the token expired: nothing left to refuse');
  await list.close();
});

test('memory mode: a token that already expired is not stored', async () => {
  const list = createRevocationList({ cacheMs: 0, now: () => T0 });
  await list.revoke('old', S0);
  assert.equal(await list.isRevoked('old'), false);
  await list.revoke('young', S0 + 1);
  assert.equal(await list.isRevoked('young'), true);
});

test('an answer is reused for cacheMs (injected clock), then asked again', async () => {
  const clock = { now: T0 };
  const list = createRevocationList({ cacheMs: 2000, now: () => clock.now });
  // Revoked until S0 + 1: from T0 + 1000 the list underneath answers false, the cache still true.
  await list.revoke('short', S0 + 1);
  assert.equal(await list.isRevoked('short'), true);
  clock.now = T0 + 1999;
  assert.equal(await list.isRevoked('short'), true, 'the cached answer, 1.999 s old');
  clock.now = T0 + 2000;
  assert.equal(await list.isRevoked('short'), false, 'older than cacheMs: asked again');
  // With cacheMs 0 every call asks the list.
  const uncached = createRevocationList({ cacheMs: 0, now: () => clock.now });
  await uncached.revoke('short', (T0 + 3000) / 1000);
  clock.now = T0 + 3000;
  assert.equal(await uncached.isRevoked('short'), false);
});

test('revoke() through a cached list is seen at once, even over a cached "not revoked"', async () => {
  const list = createRevocationList({ cacheMs: 60_000, now: () => T0 });
  assert.equal(await list.isRevoked('x'), false);
  await list.revoke('x', S0 + 3600);
  assert.equal(await list.isRevoked('x'), true);
});

test('the default cache period is 2 s', () => {
  assert.equal(DEFAULT_REVOCATION_CACHE_MS, 2000);
});
