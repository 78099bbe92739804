/**
 * Paging over computed upcoming work: the items are computed for the whole filtered set (a
 * constant number of statements, see loaders.ts), sorted in memory on a total key (sort values,
 * then id), and cut after the cursor's key, so pages are stable and `count` is exact.
 */
import {
  fingerprint,
  pageRequest,
  toPage,
  type CursorCodec,
  type Page,
  type PageArgs,
  type PageRules,
} from '@fleetgraph/paging';
import type { UpcomingItem } from '../domain/upcoming';

export type UpcomingSort = 'URGENCY' | 'DATE_DEADLINE' | 'REMAINING_DISTANCE';

const LAST = 1e15;

/** The sort key of an item: numbers (unknown values last) then the id, compared left to right. */
export function sortKey(item: UpcomingItem, sort: UpcomingSort): Array<number | string> {
  switch (sort) {
    case 'DATE_DEADLINE':
      return [item.dateDeadline ? item.dateDeadline.getTime() : LAST, item.id];
    case 'REMAINING_DISTANCE':
      return [item.remainingDistanceToDrive ?? LAST, item.id];
    default:
      return [
        -(item.criticality?.criticality ?? 0),
        item.remainingDaysToDrive ?? LAST,
        item.remainingDistanceToDrive ?? LAST,
        item.id,
      ];
  }
}

export function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] as number | string;
    const y = b[i] as number | string;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export function pageOfItems(
  codec: CursorCodec,
  name: string,
  items: UpcomingItem[],
  sort: UpcomingSort,
  args: PageArgs,
  rules: PageRules,
  filters: Record<string, unknown>,
): Page<UpcomingItem> {
  const request = pageRequest(codec, args, rules, fingerprint(name, { ...filters, sort }));
  const keyed = items.map((item) => ({ item, key: sortKey(item, sort) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const after = request.after;
  const start = after ? keyed.findIndex((k) => compareKeys(k.key, after) > 0) : 0;
  const rest = start < 0 ? [] : keyed.slice(start, start + request.size + 1);
  return toPage(
    codec,
    request,
    rest.map((k) => k.item),
    (item) => sortKey(item, sort),
    items.length,
  );
}
