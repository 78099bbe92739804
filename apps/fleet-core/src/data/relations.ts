/**
 * Nested paged fields (Group.devices, Device.groups, ...) as batched loaders. For all parents
 * asking for the same page (same size and cursor), one SQL statement fetches every parent's page:
 *
 *   select p.parent_id as "__parent", t.* from unnest(?) as p(parent_id)
 *   cross join lateral (<child query correlated on p.parent_id, keyset, limit size+1>) t
 *
 * so the number of statements per request depends on the query's shape, never on the page size.
 * `count` is a second batched statement, sent only when a client selects it.
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import {
  applyKeyset,
  fingerprint,
  pageRequest,
  toPage,
  type CursorCodec,
  type Page,
  type PageArgs,
  type PageRequest,
  type PageRules,
} from '@fleetgraph/paging';
import { keyOf, selectColumns, type TableSpec } from './tables';

export interface RelationSpec {
  name: string;
  /** SQL type of the parent id (for unnest) */
  parentType: 'uuid' | 'text';
  child: TableSpec;
  rules: PageRules;
  /** The child rows of parent `p.parent_id` visible to the viewer (no order, no limit). */
  children(knex: Knex, viewer: string): Knex.QueryBuilder;
}

export interface RelationKey {
  parentId: string;
  args: PageArgs;
}

export function relationLoader<M>(knex: Knex, codec: CursorCodec, viewer: string, spec: RelationSpec) {
  const counts = new DataLoader<string, number>(async (parentIds) => {
    const inner = spec.children(knex, viewer).count('* as n');
    const rows: Array<{ __parent: string; n: number }> = (
      await knex.raw(
        `select p.parent_id as "__parent", c.n from unnest(?::${spec.parentType}[]) as p(parent_id) cross join lateral (?) c`,
        [parentIds as string[], inner],
      )
    ).rows;
    const byParent = new Map(rows.map((r) => [String(r.__parent), r.n]));
    return parentIds.map((id) => byParent.get(id) ?? 0);
  });

  return new DataLoader<RelationKey, Page<M>, string>(
    async (keys) => {
      const results: Array<Page<M> | Error> = new Array(keys.length);
      const batches = new Map<string, { request: PageRequest; indexes: number[] }>();
      keys.forEach((key, index) => {
        try {
          const request = pageRequest(codec, key.args, spec.rules, fingerprint(spec.name, key.parentId));
          const batchKey = JSON.stringify([request.size, request.after]);
          const batch = batches.get(batchKey) ?? { request, indexes: [] };
          batch.indexes.push(index);
          batches.set(batchKey, batch);
        } catch (error) {
          results[index] = error as Error;
        }
      });
      for (const { request, indexes } of batches.values()) {
        const parentIds = [...new Set(indexes.map((i) => keys[i]!.parentId))];
        const inner = applyKeyset(
          spec.children(knex, viewer).select(selectColumns(spec.child)),
          { columns: spec.child.order.columns },
          request,
        );
        const rows: Array<Record<string, unknown> & { __parent: string }> = (
          await knex.raw(
            `select p.parent_id as "__parent", t.* from unnest(?::${spec.parentType}[]) as p(parent_id) cross join lateral (?) t`,
            [parentIds, inner],
          )
        ).rows;
        const byParent = new Map<string, M[]>();
        for (const { __parent, ...row } of rows) {
          const list = byParent.get(String(__parent)) ?? [];
          list.push(row as M);
          byParent.set(String(__parent), list);
        }
        for (const index of indexes) {
          const parentId = keys[index]!.parentId;
          const pageRequestForParent = { ...request, fingerprint: fingerprint(spec.name, parentId) };
          results[index] = toPage(
            codec,
            pageRequestForParent,
            byParent.get(parentId) ?? [],
            keyOf(spec.child) as (m: M) => unknown[],
            () => counts.load(parentId),
          );
        }
      }
      return results;
    },
    {
      cacheKeyFn: (key) => JSON.stringify([key.parentId, key.args.pageSize ?? null, key.args.pageId ?? null]),
    },
  );
}
