/**
 * Keyset (seek) paging for knex: `WHERE (a, b) > (?, ?) ORDER BY a, b LIMIT size + 1`.
 * The last key column must be unique (usually the id) so the order is total. Deep pages cost the
 * same as the first one, unlike OFFSET.
 */
import type { Knex } from 'knex';
import type { PageRequest } from './page';

export interface KeysetOrder {
  /** qualified column names, the last one unique */
  columns: string[];
  direction?: 'asc' | 'desc';
}

/** Keeps the rows after the keyset position `after` in `order` (none when `after` is null). */
export function whereAfter<Q extends Knex.QueryBuilder>(
  qb: Q,
  order: KeysetOrder,
  after: readonly unknown[] | null,
): Q {
  if (!after) return qb;
  if (after.length !== order.columns.length) throw new Error('cursor key does not match the order columns');
  const columns = order.columns.map(() => '??').join(', ');
  const values = order.columns.map(() => '?').join(', ');
  qb.whereRaw(`(${columns}) ${(order.direction ?? 'asc') === 'asc' ? '>' : '<'} (${values})`, [
    ...order.columns,
    ...(after as Knex.Value[]),
  ]);
  return qb;
}

export function applyKeyset<Q extends Knex.QueryBuilder>(qb: Q, order: KeysetOrder, request: PageRequest): Q {
  const direction = order.direction ?? 'asc';
  whereAfter(qb, order, request.after);
  for (const column of order.columns) qb.orderBy(column, direction);
  // The limit is written into the statement, not bound: with `limit $n` PostgreSQL cannot cost a
  // generic plan and keeps planning a page afresh on every call, most of a cheap page's
  // statement time.
  // A page size is a bounded integer (pageRequest), so the text stays safe and the sizes few.
  if (!Number.isSafeInteger(request.size) || request.size < 0)
    throw new Error(`page size must be a non-negative integer (got ${String(request.size)})`);
  qb.limit(request.size + 1, { skipBinding: true });
  return qb;
}
