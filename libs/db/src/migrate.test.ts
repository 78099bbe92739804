import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, type Knex } from './knex';
import {
  migrateSchema,
  migrationMode,
  pendingMigrations,
  waitForMigrations,
  type Migrations,
} from './migrate';
import { createTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
let knex: Knex;
before(async () => {
  database = await createTestDatabase('db_migrate');
  knex = createKnex({ url: database.url });
});
after(async () => {
  await knex?.destroy();
  await database?.drop();
});

test('migrations apply in name order, each once; a later run applies only the new ones', async () => {
  const ran: string[] = [];
  const step = (name: string, sql: string) => ({
    async up(k: Knex) {
      ran.push(name);
      await k.raw(sql);
    },
  });
  // Listed out of order on purpose: the names decide.
  const first: Migrations = {
    '002_add_column': step('002', 'alter table m.things add column label text'),
    '001_create': step('001', 'create table m.things (id int primary key)'),
  };
  assert.deepEqual(await migrateSchema(knex, 'm', first), ['001_create', '002_add_column']);
  assert.deepEqual(ran, ['001', '002']);

  assert.deepEqual(await migrateSchema(knex, 'm', first), [], 'nothing applied twice');
  assert.deepEqual(ran, ['001', '002']);

  const more: Migrations = { ...first, '003_insert': step('003', "insert into m.things values (1, 'one')") };
  assert.deepEqual(await migrateSchema(knex, 'm', more), ['003_insert']);
  assert.deepEqual(ran, ['001', '002', '003']);
  assert.deepEqual(await knex('m.things').select('id', 'label'), [{ id: 1, label: 'one' }]);
  const recorded = await knex('m.knex_migrations').orderBy('id').pluck('name');
  assert.deepEqual(recorded, ['001_create', '002_add_column', '003_insert'], 'bookkeeping in the schema');
});

test('a failing migration is rolled back and stops the run', async () => {
  const failing: Migrations = {
    '001_ok': { up: async (k) => void (await k.raw('create table f.ok (id int)')) },
    '002_broken': { up: async (k) => void (await k.raw('create table f.broken (id nosuchtype)')) },
  };
  await assert.rejects(migrateSchema(knex, 'f', failing), /nosuchtype/);
  const applied = await knex('f.knex_migrations').pluck('name');
  assert.ok(!applied.includes('002_broken'), 'the broken migration is not recorded');
  const broken = await knex.raw("select to_regclass('f.broken') as t");
  assert.equal(broken.rows[0].t, null);
});

test('DATABASE_MIGRATIONS is run by default, wait on request, anything else an error', () => {
  assert.equal(migrationMode({}), 'run');
  assert.equal(migrationMode({ DATABASE_MIGRATIONS: 'wait' }), 'wait');
  assert.throws(() => migrationMode({ DATABASE_MIGRATIONS: 'maybe' }), /run or wait/);
});

test('a replica told to wait returns once another process applied every migration it knows', async () => {
  const list: Migrations = {
    '001_create': { up: async (k: Knex) => void (await k.raw('create table w.things (id int)')) },
  };
  assert.deepEqual(await pendingMigrations(knex, 'w', list), ['001_create'], 'no schema yet');
  let clock = 0;
  let polls = 0;
  const waiting = waitForMigrations(knex, 'w', list, {
    now: () => clock,
    sleep: async () => {
      polls++;
      clock += 500;
      // the migrations job runs while the replica waits
      if (polls === 2) await migrateSchema(knex, 'w', list);
    },
  });
  await waiting;
  assert.ok(polls >= 2);
  assert.deepEqual(await pendingMigrations(knex, 'w', list), []);
});

test('waiting ends in an error naming what is pending when no job applies it', async () => {
  let clock = 0;
  const list: Migrations = { '001_never': { up: async () => {} } };
  await assert.rejects(
    waitForMigrations(knex, 'never', list, {
      timeoutMs: 2000,
      now: () => clock,
      sleep: async () => void (clock += 500),
    }),
    /schema never: migrations still pending \(001_never\)/,
  );
});
