import assert from 'node:assert/strict';

/** One page of a paged field as a test reads it. */
export interface PageRead<T> {
  list: T[];
  next: string | null;
  count?: number;
}

/**
 * Every page of a paged field, following `next` from the first page: the items in order and the
 * count the first page gave (-1 when not selected). Fails when the pages run past `maxItems`
 * (a `next` that does not move forward would loop forever).
 */
export async function allPages<T>(
  page: (pageId: string | null) => Promise<PageRead<T>>,
  maxItems = 1000,
): Promise<{ items: T[]; count: number }> {
  const items: T[] = [];
  let count = -1;
  let pageId: string | null = null;
  do {
    const read: PageRead<T> = await page(pageId);
    if (count < 0) count = read.count ?? -1;
    items.push(...read.list);
    pageId = read.next;
    assert.ok(items.length <= maxItems, 'pages move forward');
  } while (pageId);
  return { items, count };
}
