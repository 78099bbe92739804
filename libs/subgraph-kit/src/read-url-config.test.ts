import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '@fleetgraph/service-kit';
import { loadSubgraphConfig } from './config';

const load = (env: Record<string, string>) => loadSubgraphConfig('probe', 'PROBE', 4999, env);
const PRIMARY = 'postgres://app@primary.internal:5432/fleetgraph';
const STANDBY = 'postgres://app@standby.internal:5432/fleetgraph';

function refused(env: Record<string, string>, pattern: RegExp) {
  assert.throws(
    () => load(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.problems.join('\n'), pattern);
      return true;
    },
  );
}

test('DATABASE_READ_URL sends reads to a standby; unset, reads go to DATABASE_URL', () => {
  assert.equal(load({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: STANDBY }).databaseReadUrl, STANDBY);
  assert.equal(load({ DATABASE_URL: PRIMARY }).databaseReadUrl, undefined);
});

test('a DATABASE_READ_URL that is not a PostgreSQL URL, or without DATABASE_URL, is a configuration error', () => {
  refused({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'not a url' }, /^DATABASE_READ_URL: /m);
  refused(
    { DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'mysql://standby/fleetgraph' },
    /DATABASE_READ_URL: must be a postgres/,
  );
  refused({ DATABASE_READ_URL: STANDBY }, /DATABASE_READ_URL: needs DATABASE_URL/);
});
