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

export function applyKeyset<Q extends Knex.QueryBuilder>(qb: Q, order: KeysetOrder, request: PageRequest): Q {
  const direction = order.direction ?? 'asc';
  if (request.after) {
    if (request.after.length !== order.columns.length) {
      throw new Error('cursor key does not match the order columns');
    }
    const columns = order.columns.map(() => '??').join(', ');
    const values = order.columns.map(() => '?').join(', ');
    qb.whereRaw(`(${columns}) ${direction === 'asc' ? '>' : '<'} (${values})`, [
      ...order.columns,
      ...(request.after as Knex.Value[]),
    ]);
  }
  for (const column of order.columns) qb.orderBy(column, direction);
  qb.limit(request.size + 1);
  return qb;
}
