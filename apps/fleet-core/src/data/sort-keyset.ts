/**
 * Keyset paging under a client-chosen sort with mixed directions (e.g. CREATED_AT DESC, LABEL
 * ASC): the position after the last row of a page is
 *
 *   (k0 > v0) or (k0 = v0 and k1 < v1) or (k0 = v0 and k1 = v1 and id > v2) ...
 *
 * with `>`/`<` per direction. The id is always the last key, so the order is total and a walk
 * through `next` visits every row exactly once. Keys are selected and carried in the cursor as
 * text (`expr::text`) and cast back to their SQL type, so no precision is lost on the way.
 */
import type { Knex } from 'knex';

export interface SortKey {
  /** SQL expression (never null) */
  sql: string;
  /** SQL type to cast the cursor value back to */
  type: 'text' | 'timestamptz' | 'uuid';
  direction: 'asc' | 'desc';
}

export const keyAlias = (i: number) => `__k${i}`;

/** Adds the key columns, the position condition (when continuing) and the order; no limit. */
export function applySortKeyset(
  knex: Knex,
  query: Knex.QueryBuilder,
  keys: SortKey[],
  after: unknown[] | null,
): void {
  keys.forEach((key, i) => query.select(knex.raw(`(${key.sql})::text as ??`, [keyAlias(i)])));
  if (after) {
    if (after.length !== keys.length || after.some((v) => typeof v !== 'string')) {
      throw new Error('cursor key does not match the sort');
    }
    const disjuncts: string[] = [];
    const bindings: unknown[] = [];
    keys.forEach((key, i) => {
      const parts: string[] = [];
      for (let j = 0; j < i; j++) {
        parts.push(`(${keys[j]!.sql}) = ?::${keys[j]!.type}`);
        bindings.push(after[j]);
      }
      parts.push(`(${key.sql}) ${key.direction === 'asc' ? '>' : '<'} ?::${key.type}`);
      bindings.push(after[i]);
      disjuncts.push(`(${parts.join(' and ')})`);
    });
    query.whereRaw(`(${disjuncts.join(' or ')})`, bindings as Knex.RawBinding[]);
  }
  for (const key of keys) query.orderByRaw(`${key.sql} ${key.direction}`);
}
