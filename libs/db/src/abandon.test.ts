import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { knexFor, RequestAbandoned } from './abandon';
import { createKnex, preparedQuery, type Knex } from './knex';
import { createTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
let knex: Knex;
let observer: Knex;
before(async () => {
  database = await createTestDatabase('abandoned statements');
  knex = createKnex({ url: database.url, applicationName: 'abandon-test', preparedStatements: true });
  observer = createKnex({ url: database.url });
  await observer.raw('create table items (id int primary key)');
});
after(async () => {
  await knex.destroy();
  await observer.destroy();
  await database.drop();
});

/** Statements of the tested pool that PostgreSQL is running now. */
async function running(): Promise<number> {
  const { rows } = await observer.raw(
    "select count(*)::int as n from pg_stat_activity where application_name = 'abandon-test' and state = 'active'",
  );
  return rows[0].n as number;
}

/** Waits until `condition` holds, checking after each of PostgreSQL's answers (bounded). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await condition()) return;
    await observer.raw('select pg_sleep(0.01)');
  }
  assert.fail('the condition never held');
}

test('a statement of an abandoned request is refused before it starts, through every way of running one', async () => {
  const controller = new AbortController();
  controller.abort();
  const scoped = knexFor(knex, controller.signal);
  await assert.rejects(scoped('items').select('id'), RequestAbandoned);
  await assert.rejects(scoped.select('id').from('items'), RequestAbandoned);
  await assert.rejects(scoped.raw('select 1'), RequestAbandoned);
  await assert.rejects(
    preparedQuery(scoped, { name: 'abandon_one', text: 'select 1 as one' }, []),
    RequestAbandoned,
  );
  assert.deepEqual(await knex('items').select('id'), [], 'the unscoped knex is untouched');
});

test('a running statement is cancelled in PostgreSQL when its request is abandoned', async () => {
  const controller = new AbortController();
  const scoped = knexFor(knex, controller.signal);
  const blocker = await observer.transaction();
  await blocker.raw('lock table items in access exclusive mode');
  try {
    const waiting = scoped('items').select('id');
    const outcome = waiting.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await until(async () => (await running()) === 1);
    controller.abort();
    assert.ok((await outcome) instanceof RequestAbandoned);
    await until(async () => (await running()) === 0);
  } finally {
    await blocker.rollback();
  }
  assert.deepEqual(await scoped.client.pool.numUsed(), 0, 'the connection went back to the pool');
});
