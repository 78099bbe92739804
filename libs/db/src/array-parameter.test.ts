import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { arrayParameter } from './array-parameter';
import { createKnex, type Knex } from './knex';
import { statementName } from './prepared-statements';
import { createTestDatabase, type TestDatabase } from './test-database';

const ANN = '6f1c1c0e-0000-4000-8000-000000000001';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase('array parameters');
  const setup = createKnex({ url: database.url });
  // Like a visibility-filtered lookup: an id index plus a correlated test per row, no statistics.
  await setup.raw('create table members (account_id uuid not null, team text not null)');
  await setup.raw('create index members_account on members (account_id)');
  await setup.raw('create table accounts (id uuid primary key, name text not null)');
  await setup.raw(`insert into accounts select gen_random_uuid(), 'n' || i from generate_series(1, 500) i`);
  await setup.raw(`insert into accounts values ('${ANN}', 'ann')`);
  await setup.raw(`insert into members values ('${ANN}', 'red')`);
  await setup.destroy();
});
after(() => database.drop());

const lookup = (keys: string) => `select a.id, a.name from accounts a
  where a.id = any(${keys})
    and exists (select 1 from members m where m.account_id = a.id and m.team = ? offset 0)`;

/** Runs the lookup of one key `runs` times on one connection; its plan counts from pg_prepared_statements. */
async function plansOf(
  keys: string,
  runs = 8,
): Promise<{ generic: number; custom: number; names: string[] }> {
  const knex: Knex = createKnex({ url: database.url, pool: { min: 0, max: 1 }, preparedStatements: true });
  try {
    const names: string[] = [];
    for (let i = 0; i < runs; i++) {
      const { rows } = await knex.raw(lookup(keys), [[ANN], 'red']);
      names.push(...rows.map((r: { name: string }) => r.name));
    }
    const text = knex
      .raw(lookup(keys), [[ANN], 'red'])
      .toSQL()
      .toNative().sql;
    const { rows } = await knex.raw(
      'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = ?',
      [statementName(text)],
    );
    assert.equal(rows.length, 1, 'the lookup ran as a named statement');
    return { ...rows[0], names };
  } finally {
    await knex.destroy();
  }
}

test('a bare array parameter of one key makes PostgreSQL plan the statement on every call', async () => {
  const plans = await plansOf('?::uuid[]');
  assert.deepEqual(plans.names, Array(8).fill('ann'));
  assert.deepEqual({ generic: plans.generic, custom: plans.custom }, { generic: 0, custom: 8 });
});

test('an arrayParameter of one key keeps the generic plan after the five trial plans', async () => {
  const plans = await plansOf(arrayParameter('uuid'));
  assert.deepEqual(plans.names, Array(8).fill('ann'), 'the same answers');
  assert.deepEqual({ generic: plans.generic, custom: plans.custom }, { generic: 3, custom: 5 });
});

test('an arrayParameter is one placeholder of the named type', () => {
  assert.equal(arrayParameter('text'), 'cast((select ?::text[]) as text[])');
});
