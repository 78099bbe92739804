/** The near cache's bookkeeping: what it may hold, and when it must forget. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createNearTable } from './near-table';

const value = (v: string | null, ttlMs = 60_000) => ({ value: v, ttlMs });

function tracked(now = () => 0) {
  const table = createNearTable({ maxBytes: 1 << 20, now });
  table.track();
  return table;
}

test('nothing is served before tracking is on, and a read sent before it is not kept', () => {
  const table = createNearTable({ maxBytes: 1 << 20 });
  const read = table.begin(['k']);
  table.track();
  table.end(read, [value('v')]);
  assert.equal(table.get('k'), undefined, 'that read was not tracked by Redis');
  table.end(table.begin(['k']), [value('v')]);
  assert.equal(table.get('k'), 'v', 'control: a read sent while tracking is kept');
});

test('an invalidation drops the value held for its key only', () => {
  const table = tracked();
  table.end(table.begin(['a', 'b']), [value('1'), value('2')]);
  table.invalidate(['a']);
  assert.equal(table.get('a'), undefined);
  assert.equal(table.get('b'), '2');
});

test('an invalidation that arrives while its key is being read keeps that read out', () => {
  const table = tracked();
  const read = table.begin(['a', 'b']);
  table.invalidate(['a']);
  table.end(read, [value('old'), value('2')]);
  assert.equal(table.get('a'), undefined, 'the read may predate the write Redis announced');
  assert.equal(table.get('b'), '2', 'the other key of the read is kept');
  table.end(table.begin(['a']), [value('new')]);
  assert.equal(table.get('a'), 'new', 'a later read is kept again');
});

test('with two reads of a key in flight, an invalidation keeps both out', () => {
  const table = tracked();
  const first = table.begin(['a']);
  const second = table.begin(['a']);
  table.invalidate(['a']);
  table.end(first, [value('old')]);
  table.end(second, [value('old')]);
  assert.equal(table.get('a'), undefined);
});

test('losing tracking forgets everything; a read begun before the loss is not kept after it is back', () => {
  const table = tracked();
  table.end(table.begin(['a']), [value('1')]);
  const inFlight = table.begin(['b']);
  table.lose();
  assert.equal(table.get('a'), undefined);
  table.track();
  table.end(inFlight, [value('2')]);
  assert.equal(table.get('b'), undefined, 'the read was sent on a connection whose tracking was lost');
  assert.equal(table.get('a'), undefined, 'nothing comes back with tracking');
});

test('a held entry expires with the time to live it had when read; a value without one stays', () => {
  let clock = 1_000;
  const table = tracked(() => clock);
  table.end(table.begin(['epoch', 'entry']), [value('e', -1), value('body', 500)]);
  clock += 499;
  assert.equal(table.get('entry'), 'body');
  clock += 1;
  assert.equal(table.get('entry'), undefined, 'not served past its expiry');
  assert.equal(table.get('epoch'), 'e');
});

test('absent and expiring keys are not held', () => {
  const table = tracked();
  table.end(table.begin(['none', 'gone', 'now']), [value(null, -2), value('x', -2), value('y', 0)]);
  assert.equal(table.size, 0);
});

test("this process's own writes and a flush of every key drop what is held", () => {
  const table = tracked();
  table.end(table.begin(['a', 'b', 'c']), [value('1'), value('2'), value('3')]);
  table.drop(['a']);
  assert.equal(table.get('a'), undefined);
  assert.equal(table.get('b'), '2');
  table.invalidate(null);
  assert.equal(table.size, 0);
});

test('held values are bounded by bytes, least recently used first', () => {
  const table = createNearTable({ maxBytes: 100 });
  table.track();
  table.end(table.begin(['a']), [value('x'.repeat(20))]);
  table.end(table.begin(['b']), [value('y'.repeat(20))]);
  table.get('a');
  table.end(table.begin(['c']), [value('z'.repeat(20))]);
  assert.equal(table.get('b'), undefined, 'the least recently used went');
  assert.equal(table.get('a'), 'x'.repeat(20));
  table.end(table.begin(['big']), [value('w'.repeat(60))]);
  assert.equal(table.get('big'), undefined, 'a value larger than the bound is not held');
});
