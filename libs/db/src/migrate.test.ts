import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, type Knex } from './knex';
import { migrateSchema, type Migrations } from './migrate';
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
