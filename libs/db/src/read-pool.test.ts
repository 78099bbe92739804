import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDatabasePools, readUrlAs } from './read-pool';

test('without a read URL (or with the primary URL) reads share the primary pool', async () => {
  for (const readUrl of [undefined, 'postgres://app@primary/fleetgraph']) {
    const pools = createDatabasePools({ url: 'postgres://app@primary/fleetgraph', readUrl });
    assert.equal(pools.reads, pools.primary);
    assert.equal(pools.separateReads, false);
    await pools.destroy();
  }
});

test('a read URL gets a pool of its own, named after the application', async () => {
  const pools = createDatabasePools({
    url: 'postgres://app@primary/fleetgraph',
    readUrl: 'postgres://app@standby/fleetgraph',
    applicationName: 'fleet-core',
  });
  assert.notEqual(pools.reads, pools.primary);
  const connection = (pools.reads.client as { config: { connection: Record<string, unknown> } }).config
    .connection;
  assert.equal(connection.application_name, 'fleet-core-reads');
  assert.equal(connection.connectionString, 'postgres://app@standby/fleetgraph');
  await pools.destroy();
});

test("an app's read URL is the standby's address with the app's own role", () => {
  assert.equal(
    readUrlAs(
      'postgres://admin:x@standby:5433/fleetgraph?sslmode=require',
      'postgres://fg_app:secret@primary:5432/fleetgraph',
    ),
    'postgres://fg_app:secret@standby:5433/fleetgraph?sslmode=require',
  );
});
