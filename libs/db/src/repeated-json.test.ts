/** json/jsonb parsed once per distinct text: unit behaviour, then through a real connection. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKnex, type Knex } from './knex';
import { memoizedJsonParser } from './repeated-json';
import { createTestDatabase, type TestDatabase } from './test-database';

describe('memoizedJsonParser', () => {
  test('the same text gives the same value, deeply frozen', () => {
    const parse = memoizedJsonParser();
    const first = parse('{"FR":{"name":"Feux"}}') as Record<string, Record<string, string>>;
    assert.equal(parse('{"FR":{"name":"Feux"}}'), first);
    assert.deepEqual(first, { FR: { name: 'Feux' } });
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.FR));
    assert.throws(() => {
      'use strict';
      (first.FR as Record<string, string>).name = 'changed';
    }, TypeError);
  });

  test('a full memo starts over; texts above the length bound are parsed every time, frozen', () => {
    const parse = memoizedJsonParser({ maxEntries: 2, maxTextLength: 10 });
    const a = parse('[1]');
    parse('[2]');
    parse('[3]'); // full: the memo starts over with [3]
    assert.notEqual(parse('[1]'), a, 'parsed again after the memo started over');
    const long = '{"k":"0123456789"}';
    const once = parse(long);
    assert.notEqual(parse(long), once);
    assert.ok(Object.isFrozen(once));
  });
});

describe('createKnex({ repeatedJson })', () => {
  let database: TestDatabase;
  let shared: Knex;
  let plain: Knex;
  before(async () => {
    database = await createTestDatabase('repeated_json');
    shared = createKnex({ url: database.url, repeatedJson: true, preparedStatements: true });
    plain = createKnex({ url: database.url });
  });
  after(async () => {
    await shared?.destroy();
    await plain?.destroy();
    await database?.drop();
  });

  const rows = `select x.n, '{"FR":{"name":"Feux"}}'::jsonb as t, '[1,2]'::json as j,
                       now() as at, 7::int8 as big
                  from generate_series(1, 3) as x(n)`;

  test('rows share one frozen value per distinct jsonb text; other types parse as before', async () => {
    const { rows: got } = await shared.raw(rows);
    assert.equal(got.length, 3);
    assert.deepEqual(got[0].t, { FR: { name: 'Feux' } });
    assert.equal(got[1].t, got[0].t, 'one object for one text');
    assert.equal(got[2].j, got[0].j);
    assert.ok(Object.isFrozen(got[0].t.FR));
    assert.ok(got[0].at instanceof Date);
    assert.equal(got[0].big, 7, 'int8 keeps the global parser');
  });

  test('a connection without the option parses every row on its own, unfrozen', async () => {
    const { rows: got } = await plain.raw(rows);
    assert.deepEqual(got[0].t, got[1].t);
    assert.notEqual(got[0].t, got[1].t);
    assert.ok(!Object.isFrozen(got[0].t));
  });
});
