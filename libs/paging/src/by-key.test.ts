import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import { keyLookup } from './by-key';

const ANN = '6f1c1c0e-0000-4000-8000-000000000001';
const BOB = '6f1c1c0e-0000-4000-8000-000000000002';

let database: TestDatabase;
let knex: Knex;
const statements: string[] = [];
before(async () => {
  database = await createTestDatabase('key lookups');
  knex = createKnex({ url: database.url, preparedStatements: true, onQuery: (sql) => statements.push(sql) });
  await knex.raw('create table notes (id uuid primary key, owner text not null, body text not null)');
  await knex.raw(`insert into notes values ('${ANN}', 'ann', 'first'), ('${BOB}', 'bob', 'second')`);
});
after(async () => {
  await knex.destroy();
  await database.drop();
});

const notes = keyLookup<{ owner: string }>({ column: 'n.id', field: 'id', kind: 'uuid' }, ['owner'], (k, p) =>
  k('notes as n').select('n.id', 'n.body').where('n.owner', p.owner),
);

test('one statement per batch, whatever its size, filtered by the shape values', async () => {
  statements.length = 0;
  const loader = notes.loader<{ id: string; body: string }>(knex, { owner: 'ann' });
  const [ann, bob, upper] = await Promise.all([
    loader.load(ANN),
    loader.load(BOB),
    loader.load(ANN.toUpperCase()),
  ]);
  assert.equal(ann?.body, 'first');
  assert.equal(bob, null, "bob's note is not ann's");
  assert.equal(upper?.body, 'first', 'uuid keys compare case-insensitively');
  const more = notes.loader<{ id: string; body: string }>(knex, { owner: 'bob' });
  assert.equal((await more.load(BOB))?.body, 'second');
  assert.equal(statements.length, 2);
  assert.equal(statements[0], statements[1], 'one text for batches of 1 and 2 ids');
});

test('ids that cannot be uuids find nothing and send no statement', async () => {
  statements.length = 0;
  const loader = notes.loader<{ id: string }>(knex, { owner: 'ann' });
  assert.deepEqual(await Promise.all([loader.load('not-a-uuid'), loader.load("'; drop table notes; --")]), [
    null,
    null,
  ]);
  assert.equal(statements.length, 0);
});
