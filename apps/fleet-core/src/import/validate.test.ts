import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCycles } from './validate';
import { formatPath } from './dataset';

test('findCycles reports each cycle once and nothing for a DAG', () => {
  assert.deepEqual(findCycles([[], [0], [0, 1]]), []);
  const cycles = findCycles([[2], [0], [1], [0]]);
  assert.equal(cycles.length, 1);
  assert.deepEqual([...cycles[0]!].sort(), [0, 1, 2]);
});

test('formatPath writes JSON paths with indexes', () => {
  assert.equal(formatPath(['organizations', 0, 'devices', 3, 'owner']), 'organizations[0].devices[3].owner');
  assert.equal(formatPath([]), '(root)');
});
