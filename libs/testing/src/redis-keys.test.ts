import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { Redis } from 'ioredis';
import { deleteRedisKeys } from './redis-keys';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const base = `fleetgraph-test:redis-keys:${randomUUID()}:`;
const redis = new Redis(REDIS_URL);
after(async () => {
  const left = await redis.keys(`${base}*`);
  if (left.length > 0) await redis.del(...left);
  await redis.quit();
});

test('deletes the keys under the prefix, and only those', async () => {
  const mine = Array.from({ length: 1_500 }, (_, i) => `${base}mine:${i}`);
  await redis.mset(...mine.flatMap((key) => [key, 'x']));
  await redis.set(`${base}other:1`, 'kept');
  await redis.set(`${base}min`, 'kept: a shorter name is not under the prefix');
  assert.equal(await deleteRedisKeys(REDIS_URL, `${base}mine:`), 1_500);
  assert.deepEqual(await redis.keys(`${base}mine:*`), []);
  assert.equal(await redis.get(`${base}other:1`), 'kept');
  assert.ok(await redis.get(`${base}min`));
});

test("the prefix is literal: a '*' or '?' in it is no wildcard", async () => {
  await redis.set(`${base}a*:1`, 'x');
  await redis.set(`${base}ab:1`, 'kept');
  await redis.set(`${base}b?:1`, 'x');
  await redis.set(`${base}bc:1`, 'kept');
  assert.equal(await deleteRedisKeys(REDIS_URL, `${base}a*:`), 1);
  assert.equal(await deleteRedisKeys(REDIS_URL, `${base}b?:`), 1);
  assert.equal(await redis.get(`${base}ab:1`), 'kept');
  assert.equal(await redis.get(`${base}bc:1`), 'kept');
});

test('an empty prefix is refused before anything is deleted', async () => {
  await redis.set(`${base}guard`, 'kept');
  await assert.rejects(deleteRedisKeys(REDIS_URL, ''), /empty prefix/);
  assert.equal(await redis.get(`${base}guard`), 'kept');
});
