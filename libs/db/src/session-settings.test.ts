/** createKnex({ sessionSettings }): every pooled connection starts with them, no statement sent. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKnex, startupOptions, withSessionSettings, type Knex } from './knex';
import { createTestDatabase, type TestDatabase } from './test-database';

describe('startupOptions', () => {
  test('writes each setting as -c name=value', () => {
    assert.equal(startupOptions({ jit: 'off', work_mem: '8MB' }), '-c jit=off -c work_mem=8MB');
    assert.equal(startupOptions({ 'fleetgraph.role': 'reader' }), '-c fleetgraph.role=reader');
  });

  test('refuses a name or value that would split or change the option list', () => {
    assert.throws(() => startupOptions({ 'jit -c x': 'off' }), /invalid PostgreSQL setting name/);
    assert.throws(() => startupOptions({ jit: 'off -c statement_timeout=0' }), /invalid value/);
    assert.throws(() => startupOptions({ search_path: "'x'" }), /invalid value/);
  });
});

describe('withSessionSettings', () => {
  const optionsOf = (url: string) => new URL(url).searchParams.get('options');

  test('adds the settings to a URL without options, keeping its other parts', () => {
    const url = withSessionSettings('postgres://app:p%40ss@db:5432/fleet?sslmode=require', { jit: 'off' });
    const parsed = new URL(url);
    assert.equal(optionsOf(url), '-c jit=off');
    assert.equal(parsed.password, 'p%40ss');
    assert.equal(parsed.searchParams.get('sslmode'), 'require');
  });

  test("keeps the URL's own options, after ours so that the deployer's value wins", () => {
    const url = withSessionSettings('postgres://db/fleet?options=-c%20search_path%3Dapp%20-c%20jit%3Don', {
      jit: 'off',
    });
    assert.equal(optionsOf(url), '-c jit=off -c search_path=app -c jit=on');
  });

  test('refuses a URL that is not one, instead of dropping the settings', () => {
    assert.throws(() => withSessionSettings('host=db dbname=fleet', { jit: 'off' }), /not a URL/);
  });
});

describe('createKnex({ sessionSettings })', () => {
  let database: TestDatabase;
  let knex: Knex;
  const sent: string[] = [];
  before(async () => {
    database = await createTestDatabase('session_settings');
    knex = createKnex({
      url: database.url,
      pool: { min: 0, max: 2 },
      sessionSettings: { jit: 'off', work_mem: '8MB' },
      onQuery: (sql) => sent.push(sql),
    });
  });
  after(async () => {
    await knex.destroy();
    await database.drop();
  });

  test('every pooled connection has the settings, and no statement set them', async () => {
    const [a, b] = await Promise.all([
      knex.raw(`select current_setting('jit') as jit, current_setting('work_mem') as mem, pg_sleep(0.05)`),
      knex.raw(`select current_setting('jit') as jit, current_setting('work_mem') as mem, pg_sleep(0.05)`),
    ]);
    for (const { rows } of [a, b]) assert.deepEqual([rows[0].jit, rows[0].mem], ['off', '8MB']);
    const { rows } = await knex.raw(
      'select count(distinct pid)::int as n from pg_stat_activity where datname = current_database()',
    );
    assert.equal(rows[0].n, 2, 'two connections were opened');
    assert.ok(
      sent.every((sql) => !/\bset\b/i.test(sql)),
      sent.join('\n'),
    );
  });
});

describe('createKnex({ sessionSettings }) with options in the URL', () => {
  let database: TestDatabase;
  let knex: Knex;
  before(async () => {
    database = await createTestDatabase('session_settings_url');
    const url = new URL(database.url);
    url.searchParams.set('options', '-c work_mem=16MB');
    knex = createKnex({ url: url.toString(), pool: { min: 0, max: 1 }, sessionSettings: { jit: 'off' } });
  });
  after(async () => {
    await knex.destroy();
    await database.drop();
  });

  test("both the URL's settings and the subgraph's are in force", async () => {
    const { rows } = await knex.raw(
      `select current_setting('jit') as jit, current_setting('work_mem') as mem`,
    );
    assert.deepEqual([rows[0].jit, rows[0].mem], ['off', '16MB']);
  });
});
