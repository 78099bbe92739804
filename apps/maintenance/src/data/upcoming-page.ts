/**
 * Paging over computed upcoming work: the items are computed for the whole filtered set (a
 * constant number of statements, see reader.ts), ordered on a total key (sort values, then id),
 * and cut after the cursor's key, so pages are stable and `count` is exact. Only the page is
 * ordered: a bounded heap keeps the page's items among a fleet's tens of thousands, compared
 * field by field (no key arrays), and an item's id is encoded only when two items tie on every
 * sort value.
 */
import {
  fingerprint,
  pageRequest,
  toPage,
  type CursorCodec,
  type Page,
  type PageArgs,
} from '@fleetgraph/paging';
import type { UpcomingItem } from '../domain/upcoming';

export type UpcomingSort = 'URGENCY' | 'DATE_DEADLINE' | 'REMAINING_DISTANCE';

const LAST = 1e15;

const LENGTH: Record<UpcomingSort, number> = { URGENCY: 4, DATE_DEADLINE: 2, REMAINING_DISTANCE: 2 };

/** The i-th value of an item's sort key: numbers (unknown values last), then the id. */
function valueAt(item: UpcomingItem, sort: UpcomingSort, i: number): number | string {
  if (i === LENGTH[sort] - 1) return item.id;
  switch (sort) {
    case 'DATE_DEADLINE':
      return item.dateDeadlineMs ?? LAST;
    case 'REMAINING_DISTANCE':
      return item.remainingDistanceToDrive ?? LAST;
    default:
      return i === 0
        ? -(item.criticality?.criticality ?? 0)
        : i === 1
          ? (item.remainingDaysToDrive ?? LAST)
          : (item.remainingDistanceToDrive ?? LAST);
  }
}

/** The sort key of an item (what a cursor records): numbers (unknown values last) then the id. */
export function sortKey(item: UpcomingItem, sort: UpcomingSort): Array<number | string> {
  return Array.from({ length: LENGTH[sort] }, (_, i) => valueAt(item, sort, i));
}

function compareValues(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return String(x) < String(y) ? -1 : 1;
}

/** sortKey(a) against sortKey(b), left to right, reading only the values it needs. */
function compareItems(a: UpcomingItem, b: UpcomingItem, sort: UpcomingSort): number {
  for (let i = 0; i < LENGTH[sort]; i++) {
    const order = compareValues(valueAt(a, sort, i), valueAt(b, sort, i));
    if (order !== 0) return order;
  }
  return 0;
}

/** sortKey(item) against a cursor's key, left to right. */
function compareToKey(item: UpcomingItem, sort: UpcomingSort, key: unknown[]): number {
  for (let i = 0; i < Math.max(LENGTH[sort], key.length); i++) {
    const order = compareValues(i < LENGTH[sort] ? valueAt(item, sort, i) : undefined, key[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The `k` smallest items by `compare` among those `keep` accepts, in order: a max-heap of at most
 * `k` items, so a fleet's list costs one comparison per item once the heap is full.
 */
export function smallest<T>(
  items: readonly T[],
  k: number,
  compare: (a: T, b: T) => number,
  keep: (item: T) => boolean,
): T[] {
  const heap: T[] = [];
  const swap = (i: number, j: number) => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i]!, heap[parent]!) <= 0) return;
      swap(i, parent);
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      let top = i;
      if (left < heap.length && compare(heap[left]!, heap[top]!) > 0) top = left;
      if (left + 1 < heap.length && compare(heap[left + 1]!, heap[top]!) > 0) top = left + 1;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  if (k <= 0) return [];
  for (const item of items) {
    if (!keep(item)) continue;
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}

export function pageOfItems(
  codec: CursorCodec,
  name: string,
  items: UpcomingItem[],
  sort: UpcomingSort,
  args: PageArgs,
  filters: Record<string, unknown>,
  /** `count` when `items` is not the whole list (a walk's candidates): else items.length */
  count?: Page<UpcomingItem>['count'],
): Page<UpcomingItem> {
  const request = pageRequest(codec, args, undefined, fingerprint(name, { ...filters, sort }));
  const after = request.after;
  const rest = smallest(
    items,
    request.size + 1,
    (a, b) => compareItems(a, b, sort),
    after ? (item) => compareToKey(item, sort, after) > 0 : () => true,
  );
  return toPage(codec, request, rest, (item) => sortKey(item, sort), count ?? items.length);
}
