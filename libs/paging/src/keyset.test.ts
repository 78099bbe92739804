import assert from 'node:assert/strict';
import { test } from 'node:test';
import knexFactory from 'knex';
import { applyKeyset } from './keyset';

const knex = knexFactory({ client: 'pg' });
const order = { columns: ['r.started_at', 'r.id'], direction: 'desc' as const };

test('the page size is written into the statement (PostgreSQL can plan a page once), the cursor is bound', () => {
  const query = applyKeyset(knex('reports as r').select('r.id'), order, {
    size: 20,
    after: ['2026-03-10T07:00:00.000Z', 'r-1'],
    fingerprint: 'f',
  }).toSQL();
  assert.match(query.sql, /limit 21$/);
  assert.deepEqual(query.bindings, ['2026-03-10T07:00:00.000Z', 'r-1']);
});

test('a size that is not a non-negative integer never reaches the statement text', () => {
  for (const size of [1.5, -1, Number.NaN, '1; drop table x' as unknown as number])
    assert.throws(
      () => applyKeyset(knex('reports as r'), order, { size, after: null, fingerprint: 'f' }),
      /page size/,
    );
});
