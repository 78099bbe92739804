import assert from 'node:assert/strict';
import { test } from 'node:test';
import { optionalRedis } from './redis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

test('ready() resolves once the connection is up, then at once; commands after it reach Redis', async () => {
  const errors: string[] = [];
  const guarded = optionalRedis(REDIS_URL, (_error, operation) => errors.push(operation));
  try {
    assert.notEqual(guarded.redis.status, 'ready', 'control: a new connection is not ready yet');
    await guarded.ready();
    assert.equal(guarded.redis.status, 'ready');
    await guarded.ready();
    assert.equal(await guarded.attempt('ping', 'fallback', (redis) => redis.ping()), 'PONG');
    assert.deepEqual(errors, []);
  } finally {
    await guarded.close();
  }
});
