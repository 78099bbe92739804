import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, type Knex } from './knex';
import { statementName } from './prepared-statements';
import { sqlTemplate } from './sql-template';
import { createTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase('sql templates');
  const setup = createKnex({ url: database.url });
  await setup.raw('create table items (id int primary key, label text not null, owner text not null)');
  await setup.raw("insert into items values (1, 'one', 'ann'), (2, 'two', 'ann'), (3, 'three', 'bob')");
  await setup.destroy();
});
after(() => database.drop());

const oneConnection = (options: { preparedStatements?: boolean; onQuery?: (sql: string) => void } = {}) =>
  createKnex({ url: database.url, pool: { min: 0, max: 1 }, ...options });

async function prepared(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw('select name from pg_prepared_statements order by name');
  return rows.map((r: { name: string }) => r.name);
}

test('a template is built once and answers each call with its own values', async () => {
  const knex = oneConnection({ preparedStatements: true });
  let builds = 0;
  const owned = sqlTemplate<{ ids: number[]; owner: string }>(['ids', 'owner'], (k, p) => {
    builds++;
    return k('items')
      .select('label')
      .whereRaw('id = any(?::int[])', [p.ids])
      .where('owner', p.owner)
      .orderBy('id');
  });
  try {
    assert.deepEqual(await owned.rows(knex, { ids: [1, 2, 3], owner: 'ann' }), [
      { label: 'one' },
      { label: 'two' },
    ]);
    assert.deepEqual(await owned.rows(knex, { ids: [3], owner: 'bob' }), [{ label: 'three' }]);
    assert.deepEqual(await owned.rows(knex, { ids: [3], owner: 'ann' }), []);
    assert.equal(builds, 1);
    assert.ok((await prepared(knex)).includes(statementName(owned.text(knex))), 'runs as a named statement');
  } finally {
    await knex.destroy();
  }
});

test('a parameter used twice and the constants of the shape are bound in their places', async () => {
  const knex = oneConnection();
  const template = sqlTemplate<{ owner: string }>(['owner'], (k, p) =>
    k('items')
      .select('id')
      .where('owner', p.owner)
      .where('label', '!=', 'two')
      .orWhere((q) => q.where('owner', p.owner).where('id', 3))
      .orderBy('id'),
  );
  try {
    assert.deepEqual(await template.rows(knex, { owner: 'ann' }), [{ id: 1 }]);
    assert.deepEqual(await template.rows(knex, { owner: 'bob' }), [{ id: 3 }]);
    assert.match(template.text(knex), /\$3/);
  } finally {
    await knex.destroy();
  }
});

test('a parameter knex reads instead of binding fails at compile time, naming it', async () => {
  const knex = oneConnection();
  const limited = sqlTemplate<{ size: number }>(['size'], (k, p) => k('items').select('id').limit(p.size));
  try {
    await assert.rejects(limited.rows(knex, { size: 1 }), /sqlTemplate: parameter.*size/);
  } finally {
    await knex.destroy();
  }
});

test('without prepared reads a template runs unnamed; listeners of query see it', async () => {
  const seen: string[] = [];
  const knex = oneConnection({ onQuery: (sql) => seen.push(sql) });
  const byId = sqlTemplate<{ id: number }>(['id'], (k, p) => k('items').select('label').where('id', p.id));
  try {
    assert.deepEqual(await byId.rows(knex, { id: 2 }), [{ label: 'two' }]);
    assert.deepEqual(await prepared(knex), []);
    assert.deepEqual(seen.slice(0, 1), [byId.text(knex)]);
  } finally {
    await knex.destroy();
  }
});

test('a prepared template whose result type a migration changed answers again, unnamed', async () => {
  const knex = oneConnection({ preparedStatements: true });
  const setup = createKnex({ url: database.url });
  await setup.raw('create table widened (id int primary key, n int not null)');
  await setup.raw('insert into widened values (1, 7)');
  const widened = sqlTemplate<{ id: number }>(['id'], (k, p) => k('widened').select('*').where('id', p.id));
  try {
    assert.deepEqual(await widened.rows(knex, { id: 1 }), [{ id: 1, n: 7 }]);
    await setup.raw('alter table widened alter column n type text');
    assert.deepEqual(await widened.rows(knex, { id: 1 }), [{ id: 1, n: '7' }]);
  } finally {
    await setup.destroy();
    await knex.destroy();
  }
});
