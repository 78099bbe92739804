/** The DateTime scalar through HTTP on a real subgraph app: impossible dates are refused. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSubgraph, type TestSubgraph } from './testing/test-subgraph';

let s: TestSubgraph;
before(async () => {
  s = await startTestSubgraph('subgraph_kit_scalars');
});
after(() => s.close());

describe('DateTime', () => {
  const impossible = [
    '2026-02-31T00:00:00Z',
    '2026-02-29',
    '2026-04-31T10:00:00+02:00',
    '2026-11-22T24:00:00Z',
  ];

  test('an impossible date as a literal is BAD_USER_INPUT, not rolled over', async () => {
    for (const value of impossible) {
      const res = await s.query(`{ echoDate(at: ${JSON.stringify(value)}) }`);
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', `${value}: ${JSON.stringify(res)}`);
      assert.ok(res.errors![0]!.message.includes(value), res.errors![0]!.message);
      assert.equal(res.data ?? null, null);
    }
  });

  test('an impossible date as a variable is BAD_USER_INPUT, not rolled over', async () => {
    for (const value of impossible) {
      const res = await s.query('query($at: DateTime!) { echoDate(at: $at) }', { at: value });
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', `${value}: ${JSON.stringify(res)}`);
      assert.equal(res.data ?? null, null);
    }
  });

  test('real dates are accepted: UTC, with an offset, without one (read as UTC), leap day, date alone', async () => {
    const cases: Array<[string, string]> = [
      ['2026-02-28T23:59:59.999Z', '2026-02-28T23:59:59.999Z'],
      ['2024-02-29', '2024-02-29T00:00:00.000Z'],
      ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
      ['2026-03-01T01:00:00+0200', '2026-02-28T23:00:00.000Z'],
      // No offset: UTC, whatever the server's time zone (tests also run with TZ set elsewhere).
      ['2026-06-01T12:00:00', '2026-06-01T12:00:00.000Z'],
    ];
    for (const [value, iso] of cases) {
      const literal = await s.query(`{ echoDate(at: ${JSON.stringify(value)}) }`);
      assert.deepEqual(literal.data, { echoDate: iso }, JSON.stringify(literal.errors));
      const variable = await s.query('query($at: DateTime!) { echoDate(at: $at) }', { at: value });
      assert.deepEqual(variable.data, { echoDate: iso }, JSON.stringify(variable.errors));
    }
  });
});
