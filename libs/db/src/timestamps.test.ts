import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { timestamptzParser } from './timestamps';

// node-postgres's own parser, before any service installs the fast one.
const builtin = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;
const parse = timestamptzParser(builtin);

test('PostgreSQL ISO timestamps parse to the same instant as node-postgres parses them', () => {
  const cases = [
    '2026-11-25 15:56:47+00',
    '2026-11-25 15:56:47.1+00',
    '2026-11-25 15:56:47.12+00',
    '2026-11-25 15:56:47.123+00',
    '2026-11-25 15:56:47.123456+00',
    '2026-11-25 15:56:47.999999-03',
    '2026-01-01 00:00:00+05:30',
    '2026-01-01 00:00:00.5-09:30',
    '1900-02-28 23:59:59+00:09:21',
    '2000-02-29 12:00:00.000001+14',
    '9999-12-31 23:59:59.999+00',
  ];
  for (const text of cases) assert.equal(parse(text)!.valueOf(), builtin(text).valueOf(), text);
});

test('a fraction keeps its first three digits, as milliseconds', () => {
  assert.equal((parse('2026-11-25 15:56:47.57+00') as Date).getUTCMilliseconds(), 570);
  assert.equal((parse('2026-11-25 15:56:47.0579+00') as Date).getUTCMilliseconds(), 57);
});

test('random instants and offsets round-trip', () => {
  let seed = 42;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  for (let k = 0; k < 2000; k++) {
    const text =
      `${1000 + next(9000)}-${pad(1 + next(12))}-${pad(1 + next(28))} ` +
      `${pad(next(24))}:${pad(next(60))}:${pad(next(60))}` +
      (next(2) ? `.${pad(next(1000), 3)}` : '') +
      `${next(2) ? '+' : '-'}${pad(next(15))}` +
      (next(3) === 0 ? `:${pad(next(60))}` : '');
    assert.equal(parse(text)!.valueOf(), builtin(text).valueOf(), text);
  }
});

test('anything else goes to node-postgres unchanged: BC, early years, infinity, odd text', () => {
  for (const text of [
    '0044-03-15 12:00:00+00 BC',
    '0099-01-01 00:00:00+00',
    'infinity',
    '-infinity',
    '2026-11-25 15:56:47.+00',
    '2026-11-25 15:56:47+0',
    '2026-11-25T15:56:47+00',
    '12026-11-25 15:56:47+00',
  ]) {
    const [ours, theirs] = [parse(text), builtin(text)];
    assert.equal(typeof ours, typeof theirs, text);
    assert.ok(Object.is(Number(ours), Number(theirs)), `${text}: ${String(ours)} vs ${String(theirs)}`);
  }
});
