import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { createTestDatabase } from './test-database';

async function exists(name: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    return (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await admin.end();
  }
}

test('createTestDatabase creates a fresh, usable database and drop() removes it', async () => {
  const a = await createTestDatabase('Db Create!');
  const b = await createTestDatabase('Db Create!');
  try {
    assert.match(a.name, /^fgt_db_create__[0-9a-f]{10}$/);
    assert.notEqual(a.name, b.name, 'each call its own database');
    assert.equal(new URL(a.url).pathname, `/${a.name}`);
    assert.equal(await exists(a.name), true);
    const client = new pg.Client({ connectionString: a.url });
    await client.connect();
    try {
      assert.equal((await client.query('select current_database() as d')).rows[0].d, a.name);
      const tables = await client.query(
        "select count(*)::int as n from pg_tables where schemaname = 'public'",
      );
      assert.equal(tables.rows[0].n, 0, 'empty');
    } finally {
      await client.end();
    }
  } finally {
    await a.drop();
    await b.drop();
  }
  assert.equal(await exists(a.name), false);
  assert.equal(await exists(b.name), false);
  await a.drop(); // dropping twice is harmless
});

test('without DATABASE_URL it says how to run tests', async () => {
  const saved = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  try {
    await assert.rejects(createTestDatabase('x'), /DATABASE_URL is not set/);
  } finally {
    process.env.DATABASE_URL = saved;
  }
});
