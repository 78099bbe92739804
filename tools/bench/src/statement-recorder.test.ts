import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleetgraph/db';
import { recordStatements } from './statement-recorder';

describe('recordStatements (the subgraph engine benchmark floor)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    database = await createTestDatabase('statement recorder');
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    // Connections open, as the benchmark's subgraph has them once warmed: a statement waiting for
    // a new connection is sent when it opens, which may be after another answered.
    await Promise.all([pool.query('select 1'), pool.query('select 1')]);
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  it('groups statements sent side by side in one wave and a statement sent after an answer in the next', async () => {
    const waves = await recordStatements(async () => {
      const { rows } = await pool.query('select $1::int as n', [1]);
      await Promise.all([
        pool.query('select $1::int + 1 as n', [rows[0].n]),
        pool.query({ name: 'named', text: 'select $1::text as t', values: ['x'] }),
      ]);
      await pool.query('select 3 as n');
    });
    assert.deepEqual(waves, [
      [{ text: 'select $1::int as n', values: [1] }],
      [
        { text: 'select $1::int + 1 as n', values: [1] },
        { text: 'select $1::text as t', values: ['x'] },
      ],
      [{ text: 'select 3 as n', values: [] }],
    ]);
  });

  it('records nothing once its run is over', async () => {
    const waves = await recordStatements(async () => {
      await pool.query('select 1');
    });
    await pool.query('select 2');
    assert.deepEqual(waves, [[{ text: 'select 1', values: [] }]]);
  });
});
