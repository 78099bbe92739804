import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, preparedQuery, type Knex } from './knex';
import { isPreparable, statementName } from './prepared-statements';
import { createTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase('prepared statements');
  const setup = createKnex({ url: database.url });
  await setup.raw('create table items (id int primary key, label text not null)');
  await setup.raw("insert into items values (1, 'one'), (2, 'two'), (3, 'three')");
  await setup.destroy();
});
after(() => database.drop());

/** One pooled connection, so pg_prepared_statements shows what this knex prepared. */
const oneConnection = (limit: boolean | number = true) =>
  createKnex({ url: database.url, pool: { min: 0, max: 1 }, preparedStatements: limit });

async function prepared(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw('select name from pg_prepared_statements order by name');
  return rows.map((r: { name: string }) => r.name);
}

test('single reads are preparable; scripts, writes and DDL are not', () => {
  assert.equal(isPreparable('select * from items where id = $1'), true);
  assert.equal(isPreparable('  WITH x as (select 1) select * from x'), true);
  assert.equal(isPreparable('select 1;'), true, 'a trailing semicolon is one statement');
  assert.equal(isPreparable('select 1; select 2'), false);
  assert.equal(isPreparable('insert into items values ($1, $2)'), false);
  assert.equal(isPreparable('create table x (id int)'), false);
  assert.match(statementName('select 1'), /^fg_[\w-]{22}$/);
  assert.notEqual(statementName('select 1'), statementName('select 2'));
});

test('a read runs as one named statement, reused with other values', async () => {
  const knex = oneConnection();
  try {
    const query = (id: number) => knex('items').select('label').where('id', id);
    assert.deepEqual(await query(1), [{ label: 'one' }]);
    assert.deepEqual(await query(2), [{ label: 'two' }]);
    const text = query(1).toSQL().toNative().sql;
    const names = await prepared(knex);
    assert.ok(names.includes(statementName(text)), `prepared: ${names.join(', ')}`);
    assert.equal(names.filter((n) => n === statementName(text)).length, 1);
  } finally {
    await knex.destroy();
  }
});

test('past the bound of distinct texts, reads run unnamed and still answer', async () => {
  const knex = oneConnection(2);
  try {
    assert.equal((await knex.raw('select 1 as n')).rows[0].n, 1);
    assert.equal((await knex.raw('select 2 as n')).rows[0].n, 2);
    assert.equal((await knex.raw('select 3 as n')).rows[0].n, 3);
    // The inspection itself is a fourth text: unnamed too.
    assert.deepEqual(
      await prepared(knex),
      [statementName('select 1 as n'), statementName('select 2 as n')].sort(),
    );
  } finally {
    await knex.destroy();
  }
});

test('a read whose table changed shape under its prepared plan runs again unnamed', async () => {
  const knex = oneConnection();
  try {
    const read = () => knex.raw('select * from items where id = ?', [3]);
    assert.deepEqual((await read()).rows, [{ id: 3, label: 'three' }]);
    await knex.raw('alter table items add column colour text');
    assert.deepEqual((await read()).rows, [{ id: 3, label: 'three', colour: null }]);
    assert.deepEqual((await read()).rows, [{ id: 3, label: 'three', colour: null }], 'and again');
  } finally {
    await knex.raw('alter table items drop column colour');
    await knex.destroy();
  }
});

test("a statement that fails rejects with PostgreSQL's error and gives its connection back", async () => {
  const knex = oneConnection();
  try {
    const divideBy = (n: number) =>
      preparedQuery(knex, { name: 'test_divide', text: 'select 1 / $1::int as q' }, [n]);
    assert.deepEqual(await divideBy(1), [{ q: 1 }]);
    await assert.rejects(divideBy(0), { code: '22012' }); // division_by_zero, named statement
    await assert.rejects(knex.raw('select 1 / ?::int as q', [0]), { code: '22012' }); // knex's named read
    // The pool's only connection came back each time.
    assert.deepEqual(await divideBy(2), [{ q: 0 }]);
    assert.equal((await knex.raw('select 1 / ?::int as q', [1])).rows[0].q, 1);
  } finally {
    await knex.destroy();
  }
});

test('without the option nothing is prepared', async () => {
  const knex = createKnex({ url: database.url, pool: { min: 0, max: 1 } });
  try {
    await knex('items').select('label').where('id', 1);
    assert.deepEqual(await prepared(knex), []);
  } finally {
    await knex.destroy();
  }
});
