import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDatabaseUnavailable } from './availability';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('network failures, shutdowns, timeouts and a full pool are the database being away', () => {
  for (const error of [
    withCode('ECONNREFUSED'),
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('08006'),
    withCode('57014', 'canceling statement due to statement timeout'),
    withCode('53300'),
    withCode('40001', 'canceling statement due to conflict with recovery'),
    Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
    }),
    new Error('Connection terminated unexpectedly'),
    new Error('Query read timeout'),
  ])
    assert.equal(isDatabaseUnavailable(error), true, String(error));
});

test('a wrapped cause is looked through (GraphQL errors keep the original)', () => {
  assert.equal(
    isDatabaseUnavailable({ message: 'resolver failed', originalError: withCode('ECONNREFUSED') }),
    true,
  );
});

test('bugs and bad statements are not', () => {
  for (const error of [
    withCode('42P01', 'relation does not exist'),
    withCode('23505'),
    withCode('25006', 'cannot execute UPDATE in a read-only transaction'),
    new TypeError('x is undefined'),
    undefined,
  ])
    assert.equal(isDatabaseUnavailable(error), false, String(error));
});
