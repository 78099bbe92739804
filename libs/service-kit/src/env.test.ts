import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, envField, parseEnv, z } from './env';

const schema = z.object({
  PORT: envField.port(4000),
  PUBLIC_URL: envField.url(),
  VERBOSE: envField.bool(false),
  WORKERS: envField.int(2, 1),
  LOG_LEVEL: envField.logLevel(),
});

test('valid environment: defaults applied, strings coerced', () => {
  const config = parseEnv('svc', schema, { PUBLIC_URL: 'http://x.test', VERBOSE: 'yes', WORKERS: '4' });
  assert.deepEqual(config, {
    PORT: 4000,
    PUBLIC_URL: 'http://x.test',
    VERBOSE: true,
    WORKERS: 4,
    LOG_LEVEL: 'info',
  });
  assert.equal(parseEnv('svc', schema, { PUBLIC_URL: 'http://x.test', VERBOSE: '0' }).VERBOSE, false);
});

test('every problem is listed at once, each under its variable name', () => {
  let error: unknown;
  try {
    parseEnv('svc', schema, { PORT: '70000', VERBOSE: 'maybe', WORKERS: '0', LOG_LEVEL: 'loud' });
  } catch (caught) {
    error = caught;
  }
  assert.ok(error instanceof ConfigError, 'a ConfigError');
  assert.equal(error.service, 'svc');
  assert.deepEqual(
    error.problems.map((p) => p.split(':')[0]),
    ['PORT', 'PUBLIC_URL', 'VERBOSE', 'WORKERS', 'LOG_LEVEL'],
  );
  assert.match(error.message, /^svc: invalid configuration:\n {2}- PORT: /);
  assert.equal(error.message.split('\n').length, 6, 'one line per problem');
});
