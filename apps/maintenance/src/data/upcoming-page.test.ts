import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CursorCodec } from '@fleetgraph/paging';
import type { UpcomingItem } from '../domain/upcoming';
import { pageOfItems, smallest, sortKey, type UpcomingSort } from './upcoming-page';

const codec = new CursorCodec('upcoming-page-test-secret');

/** Items in index order; `tie` items share every sort value, and ids run against the index order. */
function items(count: number, tie: (i: number) => boolean): UpcomingItem[] {
  return Array.from({ length: count }, (_, i) => {
    const value = tie(i) ? 1 : 100 + i;
    return {
      id: `id-${String(count - i).padStart(3, '0')}`,
      criticality: { criticality: 1 },
      remainingDaysToDrive: value,
      remainingDistanceToDrive: value,
      dateDeadline: new Date(value * 86_400_000),
      dateDeadlineMs: value * 86_400_000,
    } as unknown as UpcomingItem;
  });
}

const byKey = (sort: UpcomingSort) => (a: UpcomingItem, b: UpcomingItem) => {
  const [x, y] = [sortKey(a, sort), sortKey(b, sort)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
};

for (const sort of ['URGENCY', 'DATE_DEADLINE', 'REMAINING_DISTANCE'] as const) {
  test(`${sort}: pages of 3 cover every item once, in key order, ties broken by id`, () => {
    const list = items(20, (i) => i % 4 === 0);
    const seen: string[] = [];
    let pageId: string | null = null;
    do {
      const page = pageOfItems(codec, 'test', list, sort, { pageSize: 3, pageId }, {});
      seen.push(...page.list.map((item) => item.id));
      pageId = page.next;
      assert.ok(seen.length <= 20, 'the pages end (a cursor never leads back)');
    } while (pageId);
    assert.deepEqual(
      seen,
      [...list].sort(byKey(sort)).map((item) => item.id),
    );
    assert.equal(new Set(seen).size, 20);
  });
}

test('smallest keeps the k smallest accepted items in order, like sorting everything and cutting', () => {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) % 50;
  for (const size of [0, 1, 5, 60, 400]) {
    const values = Array.from({ length: size }, random);
    const even = (v: number) => v % 2 === 0;
    for (const k of [0, 1, 3, 51, 500]) {
      const expected = values
        .filter(even)
        .sort((a, b) => a - b)
        .slice(0, k);
      assert.deepEqual(
        smallest(values, k, (a, b) => a - b, even),
        expected,
        `size ${size}, k ${k}`,
      );
    }
  }
});
